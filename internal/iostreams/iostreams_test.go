package iostreams

import "testing"

func TestColorWanted(t *testing.T) {
	cases := []struct {
		tty  bool
		env  map[string]string
		want bool
	}{
		{true, nil, true},
		{false, nil, false},
		{true, map[string]string{"NO_COLOR": "1"}, false},
		{true, map[string]string{"NO_COLOR": "1", "CLICOLOR_FORCE": "1"}, false},
		{false, map[string]string{"CLICOLOR_FORCE": "1"}, true},
		{false, map[string]string{"CLICOLOR_FORCE": "0"}, false},
		{true, map[string]string{"CLICOLOR": "0"}, false},
		{true, map[string]string{"TERM": "dumb"}, false},
	}
	for _, c := range cases {
		if got := colorWanted(c.tty, func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("tty=%v env=%v: got %v", c.tty, c.env, got)
		}
	}
}

func TestColorSchemeOff(t *testing.T) {
	if NewColorScheme(false).Red("x") != "x" || NewColorScheme(true).Red("x") == "x" {
		t.Fatal("colour scheme ignores its switch")
	}
}
