package common

import "strings"

// LastCodeBlock is the text of the last ``` or ~~~ fenced block of a
// markdown document, without its fences.
func LastCodeBlock(md string) (string, bool) {
	var block []string
	var fence string
	found := false
	var last []string
	for _, line := range strings.Split(md, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence, block = t[:3], nil
		case fence != "" && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "":
			fence, last, found = "", block, true
		case fence != "":
			block = append(block, line)
		}
	}
	if fence != "" { // an unclosed fence runs to the end
		last, found = block, true
	}
	if !found {
		return "", false
	}
	return strings.Join(last, "\n") + "\n", true
}
