package output

import "testing"

func TestWants(t *testing.T) {
	for _, c := range []struct {
		fields, jq string
		want       bool
	}{
		{"", "", false},
		{"name,digest", "", false},
		{"name,image_size", "", true},
		{allFields, "", true},
		{"", ".[].name", true},
	} {
		e := &Exporter{fields: c.fields, jq: c.jq}
		if got := e.Wants("image_size", "platforms"); got != c.want {
			t.Errorf("--json %q --jq %q: Wants = %v", c.fields, c.jq, got)
		}
	}
}
