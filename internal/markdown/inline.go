package markdown

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Inline parsing follows CommonMark's algorithm (a delimiter stack for
// emphasis, a bracket stack for links) with GFM's strikethrough and bare-URL
// autolinks. It also reports the earliest construct the text leaves open —
// an unmatched backtick run, bracket or emphasis opener that more text could
// still close — which is what lets a stream emit the start of a paragraph
// before the paragraph ends.

type inlineResult struct {
	segs []seg
	// pending is the offset of the earliest construct still open at the end
	// of the text, or -1: text before it renders the same whatever follows.
	pending int
}

type node struct {
	text string
	st   style
	brk  bool
}

type delim struct {
	node              int
	ch                byte
	n, orig           int
	canOpen, canClose bool
	prev, next        int
	pos               int
}

type bracket struct {
	node   int
	image  bool
	delims int // len(delims) when pushed: the bottom for its emphasis
	tail   int // the delimiter list's tail when pushed
	links  int // links formed before it: any later one deactivates it
	pos    int
}

// span gives style st to the nodes strictly between from and to.
type span struct {
	from, to int
	st       style
}

type tickRun struct{ pos, n int }

type inlineParser struct {
	src      string
	nodes    []node
	delims   []delim
	tail     int
	brackets []bracket
	spans    []span
	links    int
	pending  int

	ticks    []tickRun // every backtick run, found on the first backtick
	ticksOK  bool
	tickNext int         // index of the first run not yet passed
	byLen    map[int]int // per run length, the first run index still worth searching

	refs map[string]string // destinations of the definitions so far, by normLabel
}

// parse parses src, reusing the parser's slices from its last use.
func (p *inlineParser) parse(src string, base style) inlineResult {
	*p = inlineParser{
		src: src, tail: -1, pending: -1, byLen: p.byLen, refs: p.refs,
		nodes: p.nodes[:0], delims: p.delims[:0], brackets: p.brackets[:0], spans: p.spans[:0], ticks: p.ticks[:0],
	}
	clear(p.byLen)
	p.scan()
	p.processEmphasis(0)
	for i := p.tail; i >= 0; i = p.delims[i].prev {
		if d := p.delims[i]; d.canOpen && d.n > 0 {
			p.pend(d.pos)
		}
	}
	for _, b := range p.brackets {
		if b.image || b.links == p.links {
			p.pend(b.pos)
		}
	}
	return inlineResult{segs: p.segments(base), pending: p.pending}
}

func (p *inlineParser) pend(pos int) {
	if p.pending < 0 || pos < p.pending {
		p.pending = pos
	}
}

func (p *inlineParser) add(text string, st style) int {
	p.nodes = append(p.nodes, node{text: text, st: st})
	return len(p.nodes) - 1
}

func (p *inlineParser) scan() {
	src := p.src
	i, start := 0, 0
	flush := func(end int) {
		if end > start {
			p.add(src[start:end], 0)
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\\':
			flush(i)
			switch {
			case i+1 < len(src) && src[i+1] == '\n':
				p.nodes = append(p.nodes, node{brk: true})
				i += 2
			case i+1 < len(src) && isASCIIPunct(src[i+1]):
				p.add(src[i+1:i+2], 0)
				i += 2
			default:
				p.add("\\", 0)
				i++
			}
		case c == '`':
			flush(i)
			i = p.codeSpan(i)
		case c == '*' || c == '_' || c == '~':
			flush(i)
			i = p.delimRun(i)
		case c == '[':
			flush(i)
			p.pushBracket(i, false)
			i++
		case c == '!' && i+1 < len(src) && src[i+1] == '[':
			flush(i)
			p.pushBracket(i, true)
			i += 2
		case c == ']':
			flush(i)
			i = p.closeBracket(i)
		case c == '<':
			flush(i)
			i = p.autolink(i)
		case c == '&':
			flush(i)
			i = p.entity(i)
		case c == '\n':
			j := i
			for j > start && src[j-1] == ' ' {
				j--
			}
			flush(j)
			if i-j >= 2 {
				p.nodes = append(p.nodes, node{brk: true})
			} else {
				p.add(" ", 0)
			}
			i++
			for i < len(src) && src[i] == ' ' {
				i++
			}
		case (c == 'h' || c == 'H' || c == 'w' || c == 'W') && (i == 0 || strings.IndexByte(" \n*_~(", src[i-1]) >= 0):
			if n := bareURL(src[i:]); n > 0 {
				flush(i)
				p.add(src[i:i+n], stLink)
				i += n
			} else {
				i++
				continue
			}
		default:
			i++
			continue
		}
		start = i
	}
	flush(len(src))
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// codeSpan handles a backtick run at i: a code span up to the next run of the
// same length, or literal backticks when there is none.
func (p *inlineParser) codeSpan(i int) int {
	if !p.ticksOK {
		p.ticksOK = true
		if p.byLen == nil {
			p.byLen = make(map[int]int)
		}
		for j := i; j < len(p.src); {
			if p.src[j] != '`' {
				j++
				continue
			}
			k := j
			for k < len(p.src) && p.src[k] == '`' {
				k++
			}
			p.ticks = append(p.ticks, tickRun{j, k - j})
			j = k
		}
	}
	for p.ticks[p.tickNext].pos+p.ticks[p.tickNext].n <= i {
		p.tickNext++
	}
	// i is in run k: at its start, or past a backslash-escaped backtick.
	k := p.tickNext
	n := p.ticks[k].pos + p.ticks[k].n - i
	p.tickNext++
	from := p.byLen[n]
	if from <= k {
		from = k + 1
	}
	for j := from; j < len(p.ticks); j++ {
		if p.ticks[j].n == n {
			p.byLen[n] = j
			content := p.src[i+n : p.ticks[j].pos]
			content = strings.ReplaceAll(content, "\n", " ")
			if len(content) >= 2 && content[0] == ' ' && content[len(content)-1] == ' ' && strings.Trim(content, " ") != "" {
				content = content[1 : len(content)-1]
			}
			p.add(content, stCode)
			end := p.ticks[j].pos + n
			return end
		}
	}
	// No closer of this length anywhere after: none for later runs either.
	p.byLen[n] = len(p.ticks)
	p.pend(i)
	p.add(p.src[i:i+n], 0)
	return i + n
}

func runeBefore(s string, i int) rune {
	if i == 0 {
		return ' '
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

func runeAt(s string, i int) rune {
	if i >= len(s) {
		return ' '
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

func isPunct(r rune) bool {
	if r < 0x80 {
		return isASCIIPunct(byte(r))
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

func (p *inlineParser) delimRun(i int) int {
	c := p.src[i]
	j := i
	for j < len(p.src) && p.src[j] == c {
		j++
	}
	n := j - i
	before, after := runeBefore(p.src, i), runeAt(p.src, j)
	left := !unicode.IsSpace(after) && (!isPunct(after) || unicode.IsSpace(before) || isPunct(before))
	right := !unicode.IsSpace(before) && (!isPunct(before) || unicode.IsSpace(after) || isPunct(after))
	canOpen, canClose := left, right
	if c == '_' {
		canOpen = left && (!right || isPunct(before))
		canClose = right && (!left || isPunct(after))
	}
	if c == '~' && n > 2 {
		canOpen, canClose = false, false
	}
	idx := p.add(p.src[i:j], 0)
	if canOpen || canClose {
		p.delims = append(p.delims, delim{node: idx, ch: c, n: n, orig: n, canOpen: canOpen, canClose: canClose, prev: p.tail, next: -1, pos: i})
		d := len(p.delims) - 1
		if p.tail >= 0 {
			p.delims[p.tail].next = d
		}
		p.tail = d
	}
	return j
}

func (p *inlineParser) unlink(i int) {
	d := &p.delims[i]
	if d.prev >= 0 {
		p.delims[d.prev].next = d.next
	}
	if d.next >= 0 {
		p.delims[d.next].prev = d.prev
	} else {
		p.tail = d.prev
	}
}

// processEmphasis matches emphasis delimiters above index bottom, as in
// CommonMark's "process emphasis" procedure.
func (p *inlineParser) processEmphasis(bottom int) {
	// First live delimiter at or above bottom.
	c := -1
	for i := p.tail; i >= bottom && i >= 0; i = p.delims[i].prev {
		c = i
	}
	// openersBottom[ch][closer can open][orig%3]: where a failed search for
	// an opener stopped, so the next search for a like closer stops there too.
	var openersBottom [3][2][3]int
	for a := range openersBottom {
		for b := range openersBottom[a] {
			for k := range openersBottom[a][b] {
				openersBottom[a][b][k] = bottom - 1
			}
		}
	}
	chIdx := func(ch byte) int { return strings.IndexByte("*_~", ch) }
	for c >= 0 {
		cl := &p.delims[c]
		if !cl.canClose {
			c = cl.next
			continue
		}
		ci := chIdx(cl.ch)
		ob := 0
		if cl.canOpen {
			ob = 1
		}
		limit := openersBottom[ci][ob][cl.orig%3]
		o := -1
		for j := cl.prev; j >= 0 && j > limit && j >= bottom; j = p.delims[j].prev {
			op := &p.delims[j]
			if op.ch != cl.ch || !op.canOpen || op.n == 0 {
				continue
			}
			if cl.ch == '~' {
				if op.n != cl.n {
					continue
				}
			} else if (op.canClose || cl.canOpen) && (op.orig+cl.orig)%3 == 0 && (op.orig%3 != 0 || cl.orig%3 != 0) {
				continue
			}
			o = j
			break
		}
		if o < 0 {
			openersBottom[ci][ob][cl.orig%3] = cl.prev
			next := cl.next
			if !cl.canOpen {
				p.unlink(c)
			}
			c = next
			continue
		}
		op := &p.delims[o]
		use, st := 1, stEmph
		switch {
		case cl.ch == '~':
			use, st = cl.n, stStrike
		case op.n >= 2 && cl.n >= 2:
			use, st = 2, stStrong
		}
		p.spans = append(p.spans, span{op.node, cl.node, st})
		op.n -= use
		cl.n -= use
		p.nodes[op.node].text = strings.Repeat(string(op.ch), op.n)
		p.nodes[cl.node].text = strings.Repeat(string(cl.ch), cl.n)
		// Delimiters between the two can no longer match anything.
		for j := op.next; j != c; j = p.delims[j].next {
			p.unlink(j)
		}
		if op.n == 0 {
			p.unlink(o)
		}
		if cl.n == 0 {
			next := cl.next
			p.unlink(c)
			c = next
		}
	}
}

func (p *inlineParser) pushBracket(i int, image bool) {
	text := "["
	if image {
		text = "!["
	}
	idx := p.add(text, 0)
	p.brackets = append(p.brackets, bracket{node: idx, image: image, delims: len(p.delims), tail: p.tail, links: p.links, pos: i})
}

func (p *inlineParser) closeBracket(i int) int {
	if len(p.brackets) == 0 {
		p.add("]", 0)
		return i + 1
	}
	b := p.brackets[len(p.brackets)-1]
	if !b.image && b.links != p.links {
		p.brackets = p.brackets[:len(p.brackets)-1]
		p.add("]", 0)
		return i + 1
	}
	textStart := b.pos + 1
	if b.image {
		textStart++
	}
	dest, end, ok, incomplete := linkTail(p.src, i+1)
	if !ok {
		var refIncomplete bool
		dest, end, ok, refIncomplete = p.reference(textStart, i)
		incomplete = incomplete || refIncomplete
	}
	if incomplete {
		p.pend(b.pos)
	}
	if !ok {
		p.brackets = p.brackets[:len(p.brackets)-1]
		p.add("]", 0)
		return i + 1
	}
	// Emphasis inside the link text is settled now and cannot reach out.
	p.processEmphasis(b.delims)
	p.delims = p.delims[:b.delims]
	p.tail = b.tail
	if p.tail >= 0 {
		p.delims[p.tail].next = -1
	}
	p.brackets = p.brackets[:len(p.brackets)-1]
	p.nodes[b.node].text = ""
	closeIdx := p.add("", 0)
	st := stLink
	if b.image {
		st = stImage
	} else {
		p.links++
	}
	p.spans = append(p.spans, span{b.node, closeIdx, st})
	text := p.src[textStart:i]
	if dest != "" && dest != text && "mailto:"+text != dest {
		if strings.TrimSpace(text) != "" {
			p.add(" ", 0)
		}
		p.add("("+dest+")", stURL)
	}
	return end
}

// linkTail parses an inline link's "(destination "title")" starting at i.
// incomplete says the text ended before that could be decided.
func linkTail(s string, i int) (dest string, end int, ok, incomplete bool) {
	if i >= len(s) {
		return "", 0, false, true
	}
	if s[i] != '(' {
		return "", 0, false, false
	}
	k := skipSpace(s, i+1)
	if k >= len(s) {
		return "", 0, false, true
	}
	if s[k] == ')' {
		return "", k + 1, true, false
	}
	dest, k, ok = linkDest(s, k)
	if !ok || k >= len(s) {
		return "", 0, false, k >= len(s)
	}
	hadSpace := k < len(s) && (s[k] == ' ' || s[k] == '\n')
	k = skipSpace(s, k)
	if k >= len(s) {
		return "", 0, false, true
	}
	if hadSpace && (s[k] == '"' || s[k] == '\'' || s[k] == '(') {
		closer := s[k]
		if closer == '(' {
			closer = ')'
		}
		j := k + 1
		for ; j < len(s) && s[j] != closer; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
			}
			if s[k] == '(' && s[j] == '(' {
				return "", 0, false, false
			}
		}
		if j >= len(s) {
			return "", 0, false, true
		}
		k = skipSpace(s, j+1)
		if k >= len(s) {
			return "", 0, false, true
		}
	}
	if s[k] != ')' {
		return "", 0, false, false
	}
	return dest, k + 1, true, false
}

// linkDest parses a link destination at k: "<...>" on one line, or a run
// without spaces or control characters. end is len(s) where the text ended
// before the destination did.
func linkDest(s string, k int) (dest string, end int, ok bool) {
	if s[k] == '<' {
		j := k + 1
		for ; j < len(s) && s[j] != '>'; j++ {
			if s[j] == '\n' || s[j] == '<' {
				return "", 0, false
			}
			if s[j] == '\\' && j+1 < len(s) {
				j++
			}
		}
		if j >= len(s) {
			return "", len(s), false
		}
		return unescape(s[k+1 : j]), j + 1, true
	}
	j, depth := k, 0
	for ; j < len(s); j++ {
		c := s[j]
		if c == '\\' && j+1 < len(s) && isASCIIPunct(s[j+1]) {
			j++
			continue
		}
		if c == '(' {
			depth++
			if depth > 32 {
				return "", 0, false
			}
		}
		if c == ')' {
			if depth == 0 {
				break
			}
			depth--
		}
		if c == ' ' || c == '\n' || c < 0x20 {
			break
		}
	}
	return unescape(s[k:j]), j, true
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\n') {
		i++
	}
	return i
}

// unescape removes backslash escapes from a link destination.
func unescape(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && isASCIIPunct(s[i+1]) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// autolink handles "<" at i: a URI or e-mail autolink, inline HTML (shown
// as written), else a literal "<".
func (p *inlineParser) autolink(i int) int {
	s := p.src
	j := i + 1
	// scheme:rest
	k := j
	for k < len(s) && k-j < 33 && (isAlpha(s[k]) || k > j && (isDigit(s[k]) || s[k] == '+' || s[k] == '.' || s[k] == '-')) {
		k++
	}
	if k-j >= 2 && k-j <= 32 && k < len(s) && s[k] == ':' {
		m := k + 1
		for m < len(s) && s[m] != '>' && s[m] != '<' && s[m] > ' ' {
			m++
		}
		if m < len(s) && s[m] == '>' {
			p.add(s[j:m], stLink)
			return m + 1
		}
	}
	// local@domain
	m := j
	for m < len(s) && (isAlpha(s[m]) || isDigit(s[m]) || strings.IndexByte(".!#$%&'*+/=?^_`{|}~-", s[m]) >= 0) {
		m++
	}
	if m > j && m < len(s) && s[m] == '@' {
		d := m + 1
		for d < len(s) && (isAlpha(s[d]) || isDigit(s[d]) || s[d] == '-' || s[d] == '.') {
			d++
		}
		if d > m+1 && d < len(s) && s[d] == '>' {
			p.add(s[j:d], stLink)
			return d + 1
		}
	}
	end, incomplete := rawHTML(s, i)
	if end > 0 {
		p.add(s[i:end], 0) // as written: no entities, escapes or emphasis inside
		return end
	}
	if incomplete {
		p.pend(i)
	}
	p.add("<", 0)
	return i + 1
}

func isAlpha(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// bareURL returns the length of a GFM extended autolink (http://, https://,
// www.) at the start of s, or 0.
func bareURL(s string) int {
	var prefix int
	switch {
	case hasPrefixFold(s, "https://"):
		prefix = 8
	case hasPrefixFold(s, "http://"):
		prefix = 7
	case hasPrefixFold(s, "www."):
		prefix = 4
	default:
		return 0
	}
	end := prefix
	for end < len(s) && s[end] != ' ' && s[end] != '\n' && s[end] != '<' {
		end++
	}
	// Trailing punctuation is not part of the link.
	for end > prefix {
		c := s[end-1]
		if strings.IndexByte("?!.,:*_~'\"", c) >= 0 {
			end--
			continue
		}
		if c == ')' && strings.Count(s[:end], "(") < strings.Count(s[:end], ")") {
			end--
			continue
		}
		if c == ';' {
			k := end - 2
			for k > prefix && (isAlpha(s[k]) || isDigit(s[k])) {
				k--
			}
			if k < end-2 && s[k] == '&' {
				end = k
				continue
			}
		}
		break
	}
	// The domain: labels of letters, digits, "-" and "_" between dots.
	d := prefix
	for d < end && (isAlpha(s[d]) || isDigit(s[d]) || s[d] == '-' || s[d] == '_' || s[d] == '.' || s[d] >= 0x80) {
		d++
	}
	if d == prefix || s[prefix] == '.' || prefix == 4 && strings.IndexByte(s[prefix:d], '.') < 0 {
		return 0
	}
	return end
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// entity decodes a character reference at i, or leaves a literal "&".
func (p *inlineParser) entity(i int) int {
	if text, n := decodeEntity(p.src[i:]); n > 0 {
		p.add(text, 0)
		return i + n
	}
	p.add("&", 0)
	return i + 1
}

// segments turns the nodes into styled runs, applying the spans.
func (p *inlineParser) segments(base style) []seg {
	if len(p.spans) > 0 {
		// Prefix sums of +1/-1 per flag give every node its span styles in
		// linear time, however deeply emphasis nests.
		flags := [...]style{stEmph, stStrong, stStrike, stLink, stImage}
		count := make([]int32, (len(p.nodes)+1)*len(flags))
		at := func(node, f int) *int32 { return &count[node*len(flags)+f] }
		for _, sp := range p.spans {
			for f, fl := range flags {
				if sp.st == fl {
					*at(sp.from+1, f) += 1
					*at(sp.to, f) -= 1
				}
			}
		}
		var run [len(flags)]int32
		for n := range p.nodes {
			for f, fl := range flags {
				run[f] += *at(n, f)
				if run[f] > 0 {
					p.nodes[n].st |= fl
				}
			}
		}
	}
	out := make([]seg, 0, len(p.nodes))
	var b strings.Builder
	cur, open := style(0), false
	end := func() {
		if open {
			out = append(out, seg{text: b.String(), st: cur})
			b.Reset()
			open = false
		}
	}
	for _, n := range p.nodes {
		if n.brk {
			end()
			out = append(out, seg{brk: true})
			continue
		}
		if n.text == "" {
			continue
		}
		if st := n.st | base; !open || st != cur {
			end()
			cur, open = st, true
		}
		b.WriteString(n.text)
	}
	end()
	return out
}
