package config

import (
	"github.com/spf13/viper"
)

// layers resolves settings with viper, in its order of precedence: flag
// (viper's override layer, Set) > environment > config file > default.
//
// The environment is forge's Getenv, not the process's: `forge demo` runs
// forge's commands in-process with an environment of its own, and tests
// pass one. viper's environment layer reads the process environment
// itself (os.LookupEnv), so each variable is bound to its key as a
// viper.FlagValue that asks getenv; the one below the override layer, as
// the environment is below flags.
type layers struct {
	v      *viper.Viper
	getenv func(string) string
	flags  map[string]string // key -> value given by flag
	file   map[string]string // key -> value in the config file
	envs   map[string]string // key -> environment variable
}

func newLayers(getenv func(string) string) *layers {
	return &layers{v: viper.New(), getenv: getenv, flags: map[string]string{}, file: map[string]string{}, envs: map[string]string{}}
}

// bindEnv ties key to an environment variable.
func (l *layers) bindEnv(key, env string) {
	if env == "" {
		return
	}
	l.envs[key] = env
	// The error is for a nil flag only.
	_ = l.v.BindFlagValue(key, envValue{name: env, getenv: l.getenv})
}

// flag sets a key's value given by a flag ("" for none).
func (l *layers) flag(key, value string) {
	if value != "" {
		l.flags[key] = value
		l.v.Set(key, value)
	}
}

// fileValues merges the config file's values; empty ones count as unset.
func (l *layers) fileValues(values map[string]string) {
	m := map[string]any{}
	for k, v := range values {
		if v != "" {
			l.file[k] = v
			m[k] = v
		}
	}
	// MergeConfigMap fails only on a map viper cannot walk.
	_ = l.v.MergeConfigMap(m)
}

// get returns a key's resolved value and the layer it came from.
func (l *layers) get(key string) (string, Source) {
	val := l.v.GetString(key)
	if val == "" {
		return "", ""
	}
	switch {
	case l.flags[key] != "":
		return val, FromFlag
	case l.envs[key] != "" && l.getenv(l.envs[key]) != "":
		return val, FromEnv
	case l.file[key] != "":
		return val, FromFile
	}
	return val, FromDefault
}

// envValue is an environment variable as viper's FlagValue: set when not
// empty.
type envValue struct {
	name   string
	getenv func(string) string
}

func (e envValue) HasChanged() bool    { return e.getenv(e.name) != "" }
func (e envValue) Name() string        { return e.name }
func (e envValue) ValueString() string { return e.getenv(e.name) }
func (e envValue) ValueType() string   { return "string" }
