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
	"github.com/forgehq/forge/tui/extedit"
)

// inputRows is the height of the message editor.
const inputRows = 3

// entry is one block of the transcript.
type entry struct {
	kind string // "user", "agent", "note", "error"
	text string
}

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

// attachedMsg is an attachment built for the ask key (or its error).
type attachedMsg struct {
	owner int
	att   *chat.Attachment
	err   error
}

// cutMsg says what the budget cut from an attachment as a turn starts.
type cutMsg struct {
	owner, turn int
	note        string
	ch          <-chan tea.Msg
}

// defaultModel is the service's default model, as it answers (a Result
// of the chat's, among the program's requests in flight until it comes).
type defaultModel string

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
	keep    keepState
	// review: the input holds a message not typed since the tab came
	// into sight (kept from the last launch, or left before another
	// tab): the first enter says so rather than send it.
	review bool

	busy     string // "reply" or "command" while one runs
	turn     int
	cancel   context.CancelFunc
	reply    strings.Builder // the reply streaming in
	stream   *markdown.Stream
	streamed *lineSink

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
	v.entries = []entry{{"note", "Chatting with the service's default model. enter sends, alt+enter starts a new line, /help lists the commands, esc leaves the input."}}
	v.session = v.newSession(c) // after the greeting: a bad context limit is said below it
	return v
}

// Init asks for the key's usage and the service's default model, for the
// status bar.
func (v *View) Init() tea.Cmd {
	if v.session == nil {
		return nil
	}
	v.restore()
	c, ctx := v.session.Client, v.ctx.Ctx
	return tea.Batch(v.fetchUsage(), common.Fetch(v.ctx, v.id, 0, func() (defaultModel, error) {
		_, def, err := c.Models(ctx)
		return defaultModel(def), err
	}))
}

// Refresh asks for the key's usage again.
func (v *View) Refresh() tea.Cmd { return v.fetchUsage() }

func (v *View) fetchUsage() tea.Cmd {
	if v.session == nil {
		return nil
	}
	c, ctx := v.session.Client, v.ctx.Ctx
	return common.Fetch(v.ctx, v.id, 0, func() (*chat.AgentUsage, error) { return c.Usage(ctx) })
}

// Update handles msg, then keeps what it changed of the conversation and
// the input (keep.go).
func (v *View) Update(msg tea.Msg) tea.Cmd {
	cmd := v.update(msg)
	return tea.Batch(cmd, v.persist())
}

func (v *View) update(msg tea.Msg) tea.Cmd {
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
	case cutMsg:
		if msg.owner == v.id && msg.turn == v.turn {
			v.entries = append(v.entries, entry{"note", "forge: " + msg.note})
			v.stale = true
			return next(msg.ch)
		}
	case common.AskAgentMsg:
		return v.ask(msg)
	case attachedMsg:
		if msg.owner == v.id {
			return v.attached(msg)
		}
	case common.Result[defaultModel]:
		if msg.Owner == v.id {
			v.defModel = string(msg.Value)
		}
	case common.Result[*chat.AgentUsage]:
		if msg.Owner == v.id && msg.Err == nil {
			v.agentUsage = msg.Value
		}
	case completeMsg:
		if msg.owner == v.id && v.input.Value() == msg.line {
			return v.completed(msg)
		}
	case common.ThemeMsg:
		v.stale = true
	case tea.KeyPressMsg:
		return v.key(msg)
	case tea.PasteMsg:
		v.input.Update(msg)
	case extedit.DoneMsg:
		_, cmd := v.input.Take(msg)
		return cmd
	case tea.MouseWheelMsg:
		v.scroll(msg)
	}
	return nil
}

func (v *View) key(msg tea.KeyPressMsg) tea.Cmd {
	if v.session == nil {
		v.pager.Update(msg)
		return nil
	}
	if key.Matches(msg, v.ctx.Keys.Edit) {
		v.input.Focus()
		return v.input.External()
	}
	if !v.input.Focused() {
		switch {
		case key.Matches(msg, v.keyFocus):
			v.input.Focus()
			return nil
		case key.Matches(msg, v.ctx.Keys.Copy):
			return v.copyReply(false)
		case key.Matches(msg, keyCopyCode()):
			return v.copyReply(true)
		}
		v.scroll(msg)
		return nil
	}
	v.choices = nil
	if s := msg.String(); s == "enter" && v.review && strings.TrimSpace(v.input.Value()) != "" {
		v.review = false
		return common.Status("The message in the input was kept from before: enter again sends it, esc leaves it, typing edits it.")
	}
	v.review = false
	switch s := msg.String(); {
	case s == "tab" && completes(v.input.Value()):
		return v.complete()
	case s == "esc":
		if v.busy == "reply" {
			v.cancel()
			return nil
		}
		v.input.Blur()
	case key.Matches(msg, v.keyNewline):
		v.input.Update(tea.PasteMsg{Content: "\n"})
	case s == "enter":
		return v.send()
	case s == "tab" || s == "shift+tab":
		d := 1
		if s == "shift+tab" {
			d = -1
		}
		return func() tea.Msg { return common.SwitchTabMsg{Delta: d} }
	case s == "pgup" || s == "pgdown":
		v.scroll(msg)
	case s == "up" && v.input.Value() == "" && len(v.sent) > 0:
		v.input.SetValue(v.sent[len(v.sent)-1])
	default:
		v.input.Update(msg)
	}
	return nil
}

// scroll scrolls the conversation; back at its end, it follows new
// output again.
func (v *View) scroll(msg tea.Msg) {
	v.pager.Update(msg)
	if v.pager.AtBottom() {
		v.pager.Follow = true
	}
}

// Focus puts the focus in the input, as the tab comes into sight.
//
// A message left in the input is not sent by the first enter: coming
// back to the tab is no reason to send it.
func (v *View) Focus() {
	if v.session != nil {
		v.input.Focus()
		v.review = strings.TrimSpace(v.input.Value()) != ""
	}
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
	// What is sent, and its answer, are to be seen.
	v.pager.Follow = true
	if chat.IsCommand(line) {
		// /with REF attaches from the current repository.
		v.session.Attach = v.attacher(v.ctx.Repo)
		return v.command(line)
	}
	return v.startTurn(chat.Unescape(line))
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
	s.Notify = func(note string) { send(cutMsg{owner: owner, turn: turn, note: note, ch: ch}) }
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
		reply := v.reply.String()
		if msg.err != nil || msg.usage.FinishReason == "quota" {
			reply = closeCut(reply)
		}
		v.entries = append(v.entries, entry{"agent", reply})
	}
	v.stale = true
	switch {
	case msg.err == nil:
		u := msg.usage
		v.last = &u
		if u.FinishReason == "quota" {
			v.entries = append(v.entries, entry{"error", "The reply was cut off: the agent key's token quota is used up; /usage says when it resets."})
		}
		return v.fetchUsage()
	case errors.Is(msg.err, context.Canceled) && v.ctx.Ctx.Err() == nil:
		v.entries = append(v.entries, entry{"note", "(reply interrupted; the part received stays in the conversation)"})
		// The service counted what it sent: the usage shown follows.
		return v.fetchUsage()
	}
	sentence := errorSentence(msg.err)
	v.entries = append(v.entries, entry{"error", sentence})
	failed := common.Error(msg.err)
	if sentence != text.ErrorText(msg.err) {
		failed = func() tea.Msg { return common.StatusMsg{Text: sentence, Err: true} }
	}
	return tea.Batch(failed, v.fetchUsage())
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
		return nil
	}
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(msg.line)), "/usage") {
		return v.fetchUsage()
	}
	return nil
}

// exit ends the session, as /exit ends `forge chat`: the conversation is
// forgotten and the tab shown before comes back.
func (v *View) exit() tea.Cmd {
	v.model, v.last = "", nil
	v.entries = []entry{{"note", "The last session ended; this is a new one."}}
	v.session = v.newSession(v.session.Client)
	v.stale = true
	return tea.Batch(common.Status("Chat session ended; its conversation is forgotten."),
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
	switch e.kind {
	case "user":
		// A message of several lines is drawn as its lines.
		var out []string
		for _, line := range strings.Split(e.text, "\n") {
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
		return append([]string{""}, v.ctx.Markdown(e.text, w)...)
	case "error":
		// Whole, wrapped: an error's end (a reset time, a hint) matters.
		var out []string
		for i, l := range common.Wrap(text.OneLine(e.text), w) {
			lead := "  "
			if i == 0 {
				lead = "✗ "
			}
			out = append(out, st.Error.Render(lead+l))
		}
		return out
	}
	var out []string
	for _, line := range strings.Split(e.text, "\n") {
		for _, l := range common.Wrap(text.OneLine(line), w) {
			out = append(out, st.Dim.Render(l))
		}
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
	case v.busy == "attachment":
		parts = append(parts, st.Accent.Render(v.ctx.Spinner)+" attaching")
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
		return []key.Binding{common.Binding("esc/ctrl+c", "stop the reply", "esc"), common.Binding("pgup", "scroll", "pgup")}
	}
	tab := common.Binding("tab", "next tab", "tab")
	if completes(v.input.Value()) {
		tab = common.Binding("tab", "complete", "tab")
	}
	return []key.Binding{v.keySend, v.keyNewline, v.keyLeave, tab}
}

func (v *View) FullHelp() [][]key.Binding {
	commands := make([]key.Binding, 0, len(chat.Commands))
	for _, c := range chat.Commands {
		commands = append(commands, common.Binding(strings.TrimSpace(c.Name+" "+c.Args), c.Help, c.Name))
	}
	return [][]key.Binding{
		{v.keySend, v.keyNewline, v.ctx.Keys.Edit, v.keyStop, v.keyFocus, keyCopyReply(), keyCopyCode(), common.Binding("tab", "complete a /command, else next tab", "tab"),
			common.Binding("↑", "recall the last message", "up"), common.Binding("pgup/pgdn", "scroll the conversation", "pgup", "pgdown")},
		commands,
	}
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
