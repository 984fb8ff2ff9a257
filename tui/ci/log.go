package ci

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// maxChunk bounds one read of a log: a huge log arrives over several
// polls rather than in one message.
const maxChunk = 8 << 20

// chunk is one read of a job's log.
type chunk struct {
	job   *client.Job // the job's status now (nil if unknown)
	start int64       // where data starts in the log
	data  []byte
	more  bool // a chunk was cut at maxChunk: ask again at once
}

// Log is a job's log. While the job runs it asks for the new bytes every
// second and, when the view is at the bottom, follows them; scrolling up
// stops following, the end key (G) follows again.
type Log struct {
	ctx     *common.Context
	id      int
	repo    client.RepoName
	run     *client.WorkflowRun
	job     *client.Job
	pager   *components.Pager
	search  *components.Search
	load    common.Load
	seen    int64  // bytes of the log read so far
	partial []byte // the last line, until its newline arrives
	poll    int
	width   int
	height  int
}

// NewLog returns the log page of job.
func NewLog(ctx *common.Context, repo client.RepoName, run *client.WorkflowRun, job *client.Job) *Log {
	l := &Log{ctx: ctx, id: ctx.NewID(), repo: repo, run: run, job: job, pager: components.NewPager(ctx)}
	l.pager.Follow, l.pager.Numbers, l.pager.Sideways = true, true, true
	l.search = components.NewSearch(ctx, l.pager, "the log")
	return l
}

func (l *Log) Init() tea.Cmd { return l.fetch() }

// Refresh asks for new lines now.
func (l *Log) Refresh() tea.Cmd { return l.fetch() }

// fetch asks for the bytes after those seen, and the job's status.
func (l *Log) fetch() tea.Cmd {
	repo, runID, jobID, from := l.repo, l.run.ID, l.job.ID, l.seen
	return common.LoadREST(l.ctx, &l.load, l.id, func(ctx context.Context, c *client.Client) (m chunk, err error) {
		// The status first: a job that completes meanwhile has all its
		// log in the read that follows.
		if jobs, err := client.Collect(c.Actions.ListJobs(ctx, repo, runID, client.ListOptions{PerPage: 100}), 0); err == nil {
			for _, j := range jobs {
				if j.ID == jobID {
					m.job = j
				}
			}
		}
		body, start, err := c.Actions.JobLogsFrom(ctx, repo, jobID, from)
		if err != nil {
			return m, err
		}
		defer body.Close()
		m.start = start
		m.data, err = io.ReadAll(io.LimitReader(body, maxChunk+1))
		if len(m.data) > maxChunk {
			m.data, m.more = m.data[:maxChunk], true
		}
		return m, err
	})
}

func (l *Log) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[chunk]:
		if !msg.Take(l.id, &l.load) {
			return nil
		}
		if msg.Value.job != nil {
			l.job = msg.Value.job
		}
		if msg.Err != nil {
			return tea.Batch(common.Error(msg.Err), l.schedule(false))
		}
		l.add(msg.Value.start, msg.Value.data)
		return l.schedule(msg.Value.more)
	case pollMsg:
		if msg.owner == l.id && msg.gen == l.poll && !l.load.Busy && l.ctx.InSight(l) {
			return l.fetch()
		}
	case tea.KeyPressMsg:
		return l.key(msg)
	case tea.PasteMsg:
		l.search.Paste(msg)
	case tea.MouseWheelMsg:
		l.pager.Update(msg)
	}
	return nil
}

func (l *Log) key(msg tea.KeyPressMsg) tea.Cmd {
	k := l.ctx.Keys
	if l.search.Key(msg) {
		l.layout()
		return nil
	}
	switch {
	case key.Matches(msg, k.Ask):
		return askAbout(l.repo, l.run, "the job "+text.OneLine(l.job.Name), client.Broke(l.job.Conclusion))
	case key.Matches(msg, keyCopyLines()):
		return l.copyLines()
	default:
		l.pager.Update(msg)
	}
	return nil
}

// add takes the bytes of the log from start on: complete lines go to the
// pager, the unfinished last one is shown as it is so far.
func (l *Log) add(start int64, data []byte) {
	if start < l.seen {
		// The server sent more than asked (no range support): skip what
		// is already shown.
		skip := l.seen - start
		if skip >= int64(len(data)) {
			return
		}
		data = data[skip:]
	}
	l.seen += int64(len(data))
	buf := append(l.partial, data...)
	var lines []string
	for {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			break
		}
		lines = append(lines, l.logLine(string(buf[:i])))
		buf = buf[i+1:]
	}
	l.partial = append([]byte(nil), buf...)
	l.pager.Append(lines...)
	l.pager.SetTail(l.logLine(string(l.partial)))
	l.search.Scan()
}

// logLine is a line of the log as shown: safe for the terminal, its
// timestamp the time of day.
func (l *Log) logLine(s string) string {
	return text.LogLine(shortTime(strings.TrimSuffix(s, "\r"), l.ctx.Now().Location()))
}

// shortTime shows a log line's leading timestamp
// ("2026-11-14T06:00:00.000Z ") as the time of day in loc ("06:00:00 "):
// 9 columns rather than 25.
func shortTime(s string, loc *time.Location) string {
	i := strings.IndexByte(s, ' ')
	if i < 20 || i > 35 || s[4] != '-' || s[10] != 'T' {
		return s
	}
	t, err := time.Parse(time.RFC3339Nano, s[:i])
	if err != nil {
		return s
	}
	return t.In(loc).Format("15:04:05") + s[i:]
}

// schedule asks for more: at once after a cut chunk, in a second while
// the job runs (or the last attempt failed), never once it is over.
func (l *Log) schedule(now bool) tea.Cmd {
	if now {
		return l.fetch()
	}
	return pollAgain(l.id, &l.poll, logEvery, !client.Done(l.job.Status, l.job.Conclusion) || l.load.Err != nil)
}

func (l *Log) SetSize(width, height int) {
	l.width, l.height = width, height
	l.layout()
}

// layout gives the pager the height less the head and, while a search
// is on, its line.
func (l *Log) layout() {
	h := l.height - 1
	if l.search.Active() {
		h--
	}
	l.pager.SetSize(l.width, max(h, 1))
}

func (l *Log) View() string {
	if !l.load.Done {
		return l.ctx.Placeholder(&l.load, "the log of "+text.OneLine(l.job.Name), l.width, l.height)
	}
	st := l.ctx.Styles
	// The lines show the time of day; the head says which day.
	var started string
	if !l.job.StartedAt.IsZero() {
		started = " · started " + text.Since(l.job.StartedAt.Time, l.ctx.Now())
	}
	head := icon(l.ctx, l.job.Status, l.job.Conclusion) + " " + st.Bold.Render(text.OneLine(l.job.Name)) +
		st.Dim.Render(" · "+describe(l.job.Status, l.job.Conclusion)+started+" · lines "+l.pager.Position())
	switch {
	case client.Done(l.job.Status, l.job.Conclusion):
	case l.pager.Follow:
		head += st.Accent.Render(" · following")
	default:
		head += st.Dim.Render(" · G follows")
	}
	body := l.pager.View()
	if l.pager.Len() == 0 {
		body = st.Dim.Render("No output yet.")
	}
	if !l.search.Active() {
		return common.Pad(head+"\n"+body, l.width, l.height)
	}
	return common.Pad(head+"\n"+common.Pad(body, l.width, l.height-2)+"\n"+l.search.View(l.width), l.width, l.height)
}

func (l *Log) Title() string   { return text.OneLine(l.job.Name) + " log" }
func (l *Log) Animating() bool { return l.load.Busy || !client.Done(l.job.Status, l.job.Conclusion) }

// Link is the job's web page, else its run's.
func (l *Log) Link() string { return cmp.Or(l.job.HTMLURL, l.run.HTMLURL) }

// Capturing: the search query takes every key while it is typed.
func (l *Log) Capturing() bool { return l.search.Typing() }

// CanGoBack: esc clears a search before it leaves the log.
func (l *Log) CanGoBack() bool { return l.search.Active() }

// keyCopyLines copies the lines in view.
func keyCopyLines() key.Binding {
	return common.Binding("Y", "copy the lines in view", "Y")
}

// copyLines copies the lines in view, as shown (timestamps short,
// nothing a terminal would act on).
func (l *Log) copyLines() tea.Cmd {
	from := l.pager.Offset()
	to := min(from+l.pager.Height(), l.pager.Len())
	if from >= to {
		return common.Status("No lines to copy yet.")
	}
	lines := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		lines = append(lines, ansi.Strip(l.pager.Line(i)))
	}
	return common.Copy(strings.Join(lines, "\n")+"\n", fmt.Sprintf("lines %d–%d", from+1, to))
}

func (l *Log) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	if keys := l.search.ShortHelp(); keys != nil {
		if l.search.Typing() {
			return keys
		}
		return append(keys, k.Ask)
	}
	// Only a live log has new lines to follow.
	end := common.Binding("G", "follow new lines", "G", "end")
	if client.Done(l.job.Status, l.job.Conclusion) {
		end = common.Binding("G", "last line", "G", "end")
	}
	return []key.Binding{components.KeySearch(), k.Ask, end, k.PageDown, k.Back}
}

func (l *Log) FullHelp() [][]key.Binding {
	k := l.ctx.Keys
	return [][]key.Binding{l.pager.KeyHelp(), {components.KeySearch(), components.KeyNext(), k.Ask, k.Refresh, keyCopyLines(), k.Copy, k.Browse, k.Back}}
}
