package embed

// Page returns the HTML page. It writes a <script> tag for the
// loader; the </script> comes later, in Tail. A <!-- in this comment
// opens nothing.
func Page(title string) string {
	return "<html><head><title>" + title + "</title><script src=\"/app.js\">"
}

// Tail closes what Page opened, <style> included.
func Tail() string {
	return "</script></head><body></body></html>"
}
