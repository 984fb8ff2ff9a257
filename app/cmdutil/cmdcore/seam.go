package cmdcore

import "context"

// Seam is the run function of a verb built by newXCmd(f, runF): runF, a
// test's, when given (gh's runF seam), else run. The options P are a
// pointer to a struct embedding the Deps of the tree (cmdutil.Deps in
// forge's; Deps in forge-server's), never holding the Factory or the
// Globals (and, being a pointer, share one instantiation of Seam in the
// binary).
//
// Under a context from CaptureRuns, run is not called: the options go to
// the capture instead, which is how the command tree's test sees that
// every verb is built this way.
func Seam[P any](runF, run func(context.Context, P) error) func(context.Context, P) error {
	if runF != nil {
		return runF
	}
	return func(ctx context.Context, opts P) error {
		if capture, ok := ctx.Value(captureKey{}).(func(any)); ok {
			capture(opts)
			return nil
		}
		return run(ctx, opts)
	}
}

type captureKey struct{}

// CaptureRuns returns a context under which a verb built with Seam hands
// its options, after parsing its flags and arguments, to capture instead
// of running.
func CaptureRuns(ctx context.Context, capture func(opts any)) context.Context {
	return context.WithValue(ctx, captureKey{}, capture)
}
