package cmdutil

import (
	"context"

	"github.com/forgehq/forge/app/cmdutil/cmdcore"
)

// The names below are package cmdcore's, kept here so that forge's
// commands, which write cmdutil.UsageErrorf, cmdutil.NoArgs and the like,
// did not all change when the error types, the argument and flag helpers
// and the seam moved there (for forge-server, which links cmdcore and not
// this package). New code writes cmdcore's names; a later sweep of cmd/
// drops these. ErrSilent has no alias: a variable copied from another
// package's is set by an init function, which every forge start would run
// (docs/DESIGN.md, "Start-up cost"); its users write cmdcore.ErrSilent.

// Exit codes of forge (cmdcore's).
const (
	ExitOK          = cmdcore.ExitOK
	ExitFailure     = cmdcore.ExitFailure
	ExitUsage       = cmdcore.ExitUsage
	ExitAuth        = cmdcore.ExitAuth
	ExitPending     = cmdcore.ExitPending
	ExitInterrupted = cmdcore.ExitInterrupted
)

// Error types (cmdcore's).
type (
	UsageError = cmdcore.UsageError
	AuthError  = cmdcore.AuthError
	KeptError  = cmdcore.KeptError
	ExitError  = cmdcore.ExitError
)

// The functions, each the very function of cmdcore (so that IsGroup knows
// a command whose Args is cmdutil.GroupArgs).
var (
	UsageErrorf        = cmdcore.UsageErrorf
	AuthErrorf         = cmdcore.AuthErrorf
	InterruptedMessage = cmdcore.InterruptedMessage
	ExitCode           = cmdcore.ExitCode
	ShouldPrint        = cmdcore.ShouldPrint
	ErrorMessage       = cmdcore.ErrorMessage

	ExactArgs      = cmdcore.ExactArgs
	Operands       = cmdcore.Operands
	MaximumArgs    = cmdcore.MaximumArgs
	NoArgs         = cmdcore.NoArgs
	GroupArgs      = cmdcore.GroupArgs
	IsGroup        = cmdcore.IsGroup
	GroupFlagError = cmdcore.GroupFlagError
	ParseNumber    = cmdcore.ParseNumber
	Group          = cmdcore.Group

	FlagError      = cmdcore.FlagError
	EnumFlag       = cmdcore.EnumFlag
	PathFlag       = cmdcore.PathFlag
	PathOrDashFlag = cmdcore.PathOrDashFlag

	CaptureRuns = cmdcore.CaptureRuns
)

// Seam is cmdcore.Seam (a generic function has no alias).
func Seam[P any](runF, run func(context.Context, P) error) func(context.Context, P) error {
	return cmdcore.Seam(runF, run)
}
