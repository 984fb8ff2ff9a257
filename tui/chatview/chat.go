// Package chatview holds the TUI's chat with the service's agent: a
// chat.Session whose replies stream in rendered as markdown as they
// arrive, the same in-session commands as `forge chat` (/reset, /usage,
// /model, /exit, /help — run by the session itself), and the token usage
// in a status bar.
package chatview

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/chat"
	"github.com/forgehq/forge/internal/markdown"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// inputRows is the height of the message editor.
const inputRows = 3

// entry is one block of the transcript.
type entry struct {
	Kind string `json:"kind"` // "user", "agent", "note", "error"
	Text string `json:"text"`
}

// kept is what the chat keeps across launches (common.Keep): the
// conversation as the agent has it and as the tab shows it, the model,
// the messages for the up arrow, and the input not yet sent.
type kept struct {
	Model   string         `json:"model,omitempty"`
	History []chat.Message `json:"history,omitempty"`
	Entries []entry        `json:"entries,omitempty"`
	Sent    []string       `json:"sent,omitempty"`
	Input   string         `json:"input,omitempty"`
}

// keepName names the chat in the keep: one conversation per agent.
func keepName(agentURL string) string { return "chat\n" + agentURL }

type deltaMsg struct {
	owner, turn int
	text        string
	ch          <-chan tea.Msg
}

type turnDoneMsg struct {
	owner, turn int
	usage       chat.Usage
	err         error
}

type commandMsg struct {
	owner int
	line  string
	out   string
	model string
	err   error
}

// completeMsg is what Tab may complete line to.
type completeMsg struct {
	owner int
	line  string
	cands []string
}

type modelsMsg struct {
	owner int
	def   string
}

type usageMsg struct {
	owner int
	usage *chat.AgentUsage
	err   error
}

// View is the chat tab.
type View struct {
	ctx     *common.Context
	id      int
	session *chat.Session
	err     error // the agent is not configured

	entries []entry
	lines   []string // the finished entries, rendered at drawnW
	drawnW  int
	stale   bool
	pager   *components.Pager
	input   *components.Editor
	sent    []string // messages sent, for the up arrow
	choices []string // what the last Tab left to choose from

	busy     string // "reply" or "command" while one runs
	turn     int
	cancel   context.CancelFunc
	reply    strings.Builder // the reply streaming in
	stream   *markdown.Stream
	streamed *lineSink

	keepAs     string // the conversation's name in the keep
	model      string
	defModel   string // the service's default, when it says
	last       *chat.Usage
	agentUsage *chat.AgentUsage
	width      int
	height     int

	keySend, keyNewline, keyStop, keyLeave, keyFocus key.Binding
}

// New returns the chat tab, with a session of the profile's agent.
func New(ctx *common.Context) *View {
	v := &View{ctx: ctx, id: ctx.NewID(), pager: components.NewPager(ctx), stale: true}
	v.pager.Follow = true
	v.input = components.NewEditor(ctx, true)
	v.input.Prompt = "› "
	v.input.Placeholder = "Message the agent; /help lists the commands"
	v.input.Focus()
	v.keySend = common.Binding("enter", "send", "enter")
	v.keyNewline = common.Binding("alt+enter", "new line", "alt+enter", "ctrl+j")
	v.keyStop = common.Binding("esc", "stop the reply / leave the input", "esc")
	v.keyLeave = common.Binding("esc", "leave the input", "esc")
	v.keyFocus = common.Binding("enter/i", "type a message", "enter", "i")
	c, err := ctx.Agent()
	if err != nil {
		v.err = err
		v.input.Blur()
		return v
	}
	v.session = &chat.Session{Client: c}
	v.entries = []entry{{"note", "Chatting with the service's default model. enter sends, alt+enter starts a new line, /help lists the commands, esc leaves the input."}}
	if s, err := ctx.Settings(); err == nil {
		v.keepAs = keepName(s.AgentURL)
	}
	v.restore()
	return v
}

// restore brings back the conversation and the input of the last launch.
func (v *View) restore() {
	var k kept
	if v.ctx.Keep.Load(v.keepAs, &k) && len(k.Entries) > 0 {
		v.session.Model, v.session.History = k.Model, k.History
		v.model, v.sent = k.Model, k.Sent
		v.entries = append(k.Entries, entry{"note", "This is the conversation of your last session; /reset forgets it."})
	}
	var input string
	if v.ctx.Keep.Load(v.keepAs+"\ninput", &input) {
		v.input.SetValue(input)
	}
}

// save keeps the conversation for the next launch, as it changes.
func (v *View) save() tea.Cmd {
	var k any
	if len(v.session.History) > 0 || len(v.entries) > 1 {
		k = kept{Model: v.session.Model, History: v.session.History, Entries: v.entries, Sent: v.sent}
	}
	return common.Error(v.ctx.Keep.Save(v.keepAs, k))
}

// saveInput keeps the text typed and not sent, on every change.
func (v *View) saveInput() tea.Cmd {
	var in any
	if s := v.input.Value(); s != "" {
		in = s
	}
	return common.Error(v.ctx.Keep.Save(v.keepAs+"\ninput", in))
}

// edit gives a key or a paste to the input, keeping the text when it
// changes.
func (v *View) edit(msg tea.Msg) tea.Cmd {
	before := v.input.Value()
	v.input.Update(msg)
	if v.input.Value() == before {
		return nil
	}
	return v.saveInput()
}

// Interrupt: Ctrl-C stops a streaming reply, as in forge chat.
func (v *View) Interrupt() (tea.Cmd, bool) {
	if v.busy != "reply" {
		return nil, false
	}
	v.cancel()
	return nil, true
}

// Unsent names the conversation and the typed message, which quitting
// keeps for the next launch.
func (v *View) Unsent() string {
	if v.session == nil {
		return ""
	}
	var parts []string
	if len(v.session.History) > 0 || v.busy == "reply" {
		parts = append(parts, "the chat conversation")
	}
	if strings.TrimSpace(v.input.Value()) != "" {
		parts = append(parts, "the chat message you typed")
	}
	return strings.Join(parts, " and ")
}

// Init asks for the key's usage and the service's default model, for the
// status bar.
func (v *View) Init() tea.Cmd {
	if v.session == nil {
		return nil
	}
	c, ctx, owner := v.session.Client, v.ctx.Ctx, v.id
	return tea.Batch(v.fetchUsage(), func() tea.Msg {
		_, def, _ := c.Models(ctx)
		return modelsMsg{owner: owner, def: def}
	})
}

// Refresh asks for the key's usage again.
func (v *View) Refresh() tea.Cmd { return v.fetchUsage() }

func (v *View) fetchUsage() tea.Cmd {
	if v.session == nil {
		return nil
	}
	c, ctx, owner := v.session.Client, v.ctx.Ctx, v.id
	return func() tea.Msg {
		u, err := c.Usage(ctx)
		return usageMsg{owner: owner, usage: u, err: err}
	}
}

func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case deltaMsg:
		if msg.owner == v.id && msg.turn == v.turn {
			v.reply.WriteString(msg.text)
			v.stream.Write([]byte(msg.text))
			return next(msg.ch)
		}
	case turnDoneMsg:
		if msg.owner == v.id && msg.turn == v.turn {
			return v.turnDone(msg)
		}
	case commandMsg:
		if msg.owner == v.id {
			return v.commandDone(msg)
		}
	case completeMsg:
		if msg.owner == v.id && v.input.Value() == msg.line {
			return v.completed(msg)
		}
	case modelsMsg:
		if msg.owner == v.id {
			v.defModel = msg.def
		}
	case usageMsg:
		if msg.owner == v.id && msg.err == nil {
			v.agentUsage = msg.usage
		}
	case common.ThemeMsg:
		v.stale = true
	case tea.KeyPressMsg:
		return v.key(msg)
	case tea.PasteMsg:
		return v.edit(msg)
	case tea.MouseWheelMsg:
		v.pager.Update(msg)
	}
	return nil
}

func (v *View) key(msg tea.KeyPressMsg) tea.Cmd {
	if v.session == nil {
		v.pager.Update(msg)
		return nil
	}
	if !v.input.Focused() {
		if key.Matches(msg, v.keyFocus) {
			v.input.Focus()
			return nil
		}
		v.pager.Update(msg)
		return nil
	}
	v.choices = nil
	switch s := msg.String(); {
	case s == "tab" && strings.HasPrefix(v.input.Value(), "/") && !strings.HasPrefix(v.input.Value(), "//"):
		return v.complete()
	case s == "esc":
		if v.busy == "reply" {
			v.cancel()
			return nil
		}
		v.input.Blur()
	case key.Matches(msg, v.keyNewline):
		return v.edit(tea.PasteMsg{Content: "\n"})
	case s == "enter":
		return v.send()
	case s == "tab" || s == "shift+tab":
		d := 1
		if s == "shift+tab" {
			d = -1
		}
		return func() tea.Msg { return common.SwitchTabMsg{Delta: d} }
	case s == "pgup" || s == "pgdown":
		v.pager.Update(msg)
	case s == "up" && v.input.Value() == "" && len(v.sent) > 0:
		v.input.SetValue(v.sent[len(v.sent)-1])
		return v.saveInput()
	default:
		return v.edit(msg)
	}
	return nil
}

// complete asks what Tab completes the command typed to (model names may
// need a request).
func (v *View) complete() tea.Cmd {
	s, ctx, owner, line := v.session, v.ctx.Ctx, v.id, v.input.Value()
	return func() tea.Msg { return completeMsg{owner: owner, line: line, cands: s.Complete(ctx, line)} }
}

// completed extends the input as far as the candidates agree, and shows
// the choices left.
func (v *View) completed(msg completeMsg) tea.Cmd {
	line, choices, ok := chat.Completion(msg.line, msg.cands)
	v.choices = choices
	if !ok {
		if len(msg.cands) == 0 {
			return common.Status("Nothing to complete: tab completes a command or a model name.")
		}
		return nil
	}
	v.input.SetValue(line)
	return v.saveInput()
}

// send sends the typed message, or runs it as a command.
func (v *View) send() tea.Cmd {
	line := v.input.Value()
	if strings.TrimSpace(line) == "" {
		return nil
	}
	if v.busy != "" {
		return common.Status("Wait for the " + v.busy + " to finish (esc stops a reply); your text stays in the input.")
	}
	v.input.Reset()
	v.sent = append(v.sent, line)
	var run tea.Cmd
	if chat.IsCommand(line) {
		run = v.command(line)
	} else {
		run = v.startTurn(chat.Unescape(line))
	}
	return tea.Batch(run, v.save(), v.saveInput())
}

// startTurn streams a reply: the session's Turn runs in a goroutine of its
// own and hands each chunk over a channel; a command waits for the next
// one, so every chunk is drawn as it arrives.
func (v *View) startTurn(message string) tea.Cmd {
	v.entries = append(v.entries, entry{"user", message})
	v.turn++
	v.busy = "reply"
	// The footer's tokens were the last reply's: this one has none yet
	// (and none at all if it is stopped).
	v.last = nil
	v.reply.Reset()
	v.streamed = &lineSink{}
	v.stream = markdown.NewStream(v.streamed, v.mdOptions())
	ctx, cancel := context.WithCancel(v.ctx.Ctx)
	v.cancel = cancel
	ch := make(chan tea.Msg, 64)
	s, owner, turn, program := v.session, v.id, v.turn, v.ctx.Ctx
	// Sends give up when the program ends, so the goroutine never
	// outlives it waiting for a reader.
	send := func(m tea.Msg) {
		select {
		case ch <- m:
		case <-program.Done():
		}
	}
	go func() {
		u, err := s.Turn(ctx, message, func(d string) {
			send(deltaMsg{owner: owner, turn: turn, text: d, ch: ch})
		})
		cancel()
		send(turnDoneMsg{owner: owner, turn: turn, usage: u, err: err})
	}()
	v.pager.Follow = true
	v.stale = true
	return next(ch)
}

// next waits for the stream's next message.
func next(ch <-chan tea.Msg) tea.Cmd {
	return func() tea.Msg { return <-ch }
}

func (v *View) turnDone(msg turnDoneMsg) tea.Cmd {
	v.busy = ""
	v.stream.Close()
	v.stream = nil
	if v.reply.Len() > 0 {
		v.entries = append(v.entries, entry{"agent", v.reply.String()})
	}
	v.stale = true
	switch {
	case msg.err == nil:
		u := msg.usage
		v.last = &u
		if u.FinishReason == "quota" {
			v.entries = append(v.entries, entry{"error", "The reply was cut off: the agent key's token quota is used up; /usage says when it resets."})
		}
		return tea.Batch(v.save(), v.fetchUsage())
	case errors.Is(msg.err, context.Canceled) && v.ctx.Ctx.Err() == nil:
		v.entries = append(v.entries, entry{"note", "(reply interrupted; the part received stays in the conversation)"})
		return v.save()
	}
	v.entries = append(v.entries, entry{"error", text.ErrorText(msg.err)})
	return tea.Batch(v.save(), common.Error(msg.err))
}

// command runs an in-session command through the session, as `forge
// chat` does; its answer joins the transcript.
func (v *View) command(line string) tea.Cmd {
	v.entries = append(v.entries, entry{"user", line})
	v.stale = true
	if f := strings.Fields(strings.ToLower(line)); f[0] == "/help" || f[0] == "/?" {
		// The session's /help is forge chat's: its keys are not these.
		v.entries = append(v.entries, entry{"note", help()})
		return nil
	}
	v.busy = "command"
	s, ctx, owner := v.session, v.ctx.Ctx, v.id
	return func() tea.Msg {
		var out bytes.Buffer
		err := s.Command(ctx, line, &out)
		return commandMsg{owner: owner, line: line, out: out.String(), model: s.Model, err: err}
	}
}

func (v *View) commandDone(msg commandMsg) tea.Cmd {
	v.busy = ""
	v.model = msg.model
	v.stale = true
	if errors.Is(msg.err, chat.ErrExit) {
		return v.exit()
	}
	if out := strings.TrimRight(msg.out, "\n"); out != "" {
		v.entries = append(v.entries, entry{"note", out})
	}
	if msg.err != nil {
		v.entries = append(v.entries, entry{"error", text.ErrorText(msg.err)})
		return v.save()
	}
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(msg.line)), "/usage") {
		return tea.Batch(v.save(), v.fetchUsage())
	}
	return v.save()
}

// exit ends the session, as /exit ends `forge chat`: the conversation is
// forgotten and the tab shown before comes back.
func (v *View) exit() tea.Cmd {
	v.session = &chat.Session{Client: v.session.Client}
	v.model, v.last = "", nil
	v.entries = []entry{{"note", "The last session ended; this is a new one."}}
	v.stale = true
	return tea.Batch(v.save(), common.Status("Chat session ended; its conversation is forgotten."),
		func() tea.Msg { return common.SwitchTabMsg{Back: true} })
}

func (v *View) mdOptions() markdown.Options {
	return markdown.Options{Width: max(v.width-2, 10), Color: v.ctx.Color, Dark: v.ctx.Dark}
}

// transcript is every line of the conversation: the finished entries
// (rendered once per width) and the reply streaming in, its settled
// lines then its unsettled words, dimmed.
func (v *View) transcript() []string {
	if v.stale || v.drawnW != v.width {
		v.lines = v.lines[:0]
		for _, e := range v.entries {
			v.lines = append(v.lines, v.renderEntry(e)...)
		}
		v.drawnW, v.stale = v.width, false
		if v.stream != nil {
			// The width changed while a reply streams: render what came
			// so far again at the new width.
			v.streamed = &lineSink{}
			v.stream = markdown.NewStream(v.streamed, v.mdOptions())
			v.stream.Write([]byte(v.reply.String()))
		}
	}
	if v.stream == nil {
		return v.lines
	}
	out := append(append(append([]string{}, v.lines...), ""), v.streamed.lines...)
	if p := strings.TrimSpace(v.stream.Pending()); p != "" {
		out = append(out, v.ctx.Styles.Dim.Render(ansi.Wordwrap(text.OneLine(p), max(v.width-2, 10), " ")))
	}
	if len(v.streamed.lines) == 0 && v.stream.Pending() == "" {
		out = append(out, v.ctx.Styles.Accent.Render(v.ctx.Spinner)+v.ctx.Styles.Dim.Render(" waiting for the reply…"))
	}
	return out
}

func (v *View) renderEntry(e entry) []string {
	st := v.ctx.Styles
	w := max(v.width-2, 10)
	switch e.Kind {
	case "user":
		// A message of several lines is drawn as its lines.
		var out []string
		for _, line := range strings.Split(e.Text, "\n") {
			for _, l := range strings.Split(ansi.Wrap(text.LogLine(line), w, " "), "\n") {
				lead := "  "
				if len(out) == 0 {
					lead = "› "
				}
				out = append(out, st.Prompt.Render(lead)+st.Bold.Render(l))
			}
		}
		return append([]string{""}, out...)
	case "agent":
		return append([]string{""}, v.ctx.Markdown(e.Text, w)...)
	case "error":
		// Whole, wrapped: an error's end (a reset time, a hint) matters.
		var out []string
		for i, l := range common.Wrap(text.OneLine(e.Text), w) {
			lead := "  "
			if i == 0 {
				lead = "✗ "
			}
			out = append(out, st.Error.Render(lead+l))
		}
		return out
	}
	var out []string
	for _, l := range strings.Split(ansi.Wrap(text.Sanitize(e.Text), w, " "), "\n") {
		out = append(out, st.Dim.Render(l))
	}
	return out
}

func (v *View) SetSize(width, height int) {
	v.width, v.height = width, height
	v.pager.SetSize(width, max(height-inputRows-1, 1))
	v.input.SetWidth(width)
	v.input.SetHeight(inputRows)
}

func (v *View) View() string {
	st := v.ctx.Styles
	if v.session == nil {
		text := st.Error.Render("✗ ") + text.ErrorText(v.err) + "\n\n" + st.Dim.Render("The chat needs the agent API's address and key.")
		return common.Pad(ansi.Wrap(text, v.width, " "), v.width, v.height)
	}
	if v.stale || v.drawnW != v.width || v.stream != nil {
		v.pager.SetLines(v.transcript())
	}
	input := v.input.View()
	if !v.input.Focused() && v.input.Value() == "" {
		input = st.Dim.Render("  enter or i to type a message")
	}
	return common.Pad(common.Pad(v.pager.View(), v.width, max(v.height-inputRows-1, 1))+"\n"+v.statusBar()+"\n"+input, v.width, v.height)
}

// statusBar shows the model, the last reply's tokens and the key's usage.
func (v *View) statusBar() string {
	st := v.ctx.Styles
	model := v.model
	switch {
	case model == "" && v.defModel != "":
		model = v.defModel + " (default)"
	case model == "":
		model = "the service's default"
	}
	parts := []string{"model " + text.OneLine(model)}
	switch {
	case v.busy == "reply":
		parts = append(parts, st.Accent.Render(v.ctx.Spinner)+" replying · esc stops")
	case v.busy == "command":
		parts = append(parts, st.Accent.Render(v.ctx.Spinner)+" running the command")
	case v.last != nil:
		parts = append(parts, fmt.Sprintf("reply %s tokens (%s + %s)", chat.Thousands(v.last.TotalTokens), chat.Thousands(v.last.PromptTokens), chat.Thousands(v.last.CompletionTokens)))
	}
	if u := v.agentUsage; u != nil {
		use := fmt.Sprintf("%s/%s used", chat.Thousands(u.UsedTokens), chat.Thousands(u.QuotaTokens))
		if u.Tier != "" {
			use += " (" + text.OneLine(u.Tier) + ")"
		}
		parts = append(parts, use)
	}
	bar := " " + strings.Join(parts, " · ")
	if len(v.choices) > 0 {
		bar = " tab: " + text.OneLine(strings.Join(v.choices, "  "))
	}
	return st.Selected.Render(common.Fit(bar, v.width))
}

func (v *View) Title() string { return "Agent chat" }

// Capturing: the input takes every key while it has the focus.
func (v *View) Capturing() bool { return v.session != nil && v.input.Focused() }
func (v *View) Animating() bool { return v.busy != "" }

func (v *View) ShortHelp() []key.Binding {
	if v.session == nil {
		return nil
	}
	if !v.input.Focused() {
		k := v.ctx.Keys
		return []key.Binding{v.keyFocus, k.Up, k.PageUp}
	}
	if v.busy == "reply" {
		return []key.Binding{common.Binding("esc", "stop the reply", "esc"), common.Binding("pgup", "scroll", "pgup")}
	}
	return []key.Binding{v.keySend, v.keyNewline, v.keyLeave, common.Binding("tab", "next tab", "tab")}
}

func (v *View) FullHelp() [][]key.Binding {
	commands := make([]key.Binding, 0, len(chat.Commands))
	for _, c := range chat.Commands {
		commands = append(commands, common.Binding(strings.TrimSpace(c.Name+" "+c.Args), c.Help, c.Name))
	}
	return [][]key.Binding{
		{v.keySend, v.keyNewline, v.keyStop, v.keyFocus, common.Binding("↑", "recall the last message", "up"), common.Binding("pgup/pgdn", "scroll the conversation", "pgup", "pgdown")},
		commands,
	}
}

// help is /help's answer in the tab: the session's commands and the
// tab's own keys.
func help() string {
	var b strings.Builder
	b.WriteString("Commands:\n")
	for _, c := range chat.Commands {
		h := c.Help
		if c.Name == "/exit" {
			h = "end the session: the conversation is forgotten and the tab shown before comes back"
		}
		fmt.Fprintf(&b, "  %-14s %s\n", strings.TrimSpace(c.Name+" "+c.Args), h)
	}
	b.WriteString("Keys:\n")
	for _, k := range [][2]string{
		{"enter", "send the message, or run the command"},
		{"alt+enter", "start a new line (also ctrl+j)"},
		{"tab", "complete a command or a model name; on other text, the next tab"},
		{"↑", "on an empty input, bring the last message back"},
		{"esc", "stop the reply; else leave the input (enter or i comes back)"},
		{"ctrl+c", "stop the reply; else quit (asks first, the conversation is kept)"},
		{"pgup/pgdn", "scroll the conversation"},
	} {
		fmt.Fprintf(&b, "  %-14s %s\n", k[0], k[1])
	}
	b.WriteString("A message starting with / is typed with //.")
	return b.String()
}

// lineSink collects what a markdown stream writes, as lines.
type lineSink struct {
	lines   []string
	partial string
}

func (s *lineSink) Write(p []byte) (int, error) {
	text := s.partial + string(p)
	parts := strings.Split(text, "\n")
	s.lines = append(s.lines, parts[:len(parts)-1]...)
	s.partial = parts[len(parts)-1]
	return len(p), nil
}
