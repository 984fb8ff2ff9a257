package ci

import (
	"bytes"
	"io"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/client"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
)

// maxChunk bounds one read of a log: a huge log arrives over several
// polls rather than in one message.
const maxChunk = 8 << 20

type logMsg struct {
	owner, gen int
	job        *client.Job // the job's status now (nil if unknown)
	start      int64       // where data starts in the log
	data       []byte
	more       bool // a chunk was cut at maxChunk: ask again at once
	err        error
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
	return l
}

func (l *Log) Init() tea.Cmd { return l.fetch() }

// Refresh asks for new lines now.
func (l *Log) Refresh() tea.Cmd { return l.fetch() }

// fetch asks for the bytes after those seen, and the job's status.
func (l *Log) fetch() tea.Cmd {
	c, err := l.ctx.REST()
	if err != nil {
		l.load.Fail(err)
		return nil
	}
	gen := l.load.Start()
	ctx, repo, runID, jobID, from, owner := l.ctx.Ctx, l.repo, l.run.ID, l.job.ID, l.seen, l.id
	return func() tea.Msg {
		m := logMsg{owner: owner, gen: gen}
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
			m.err = err
			return m
		}
		defer body.Close()
		m.start = start
		m.data, m.err = io.ReadAll(io.LimitReader(body, maxChunk+1))
		if len(m.data) > maxChunk {
			m.data, m.more = m.data[:maxChunk], true
		}
		return m
	}
}

func (l *Log) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case logMsg:
		if msg.owner != l.id || !l.load.Finish(msg.gen, msg.err) {
			return nil
		}
		if msg.job != nil {
			l.job = msg.job
		}
		if msg.err != nil {
			return tea.Batch(common.Error(msg.err), l.schedule(false))
		}
		l.add(msg.start, msg.data)
		return l.schedule(msg.more)
	case pollMsg:
		if msg.owner == l.id && msg.gen == l.poll && !l.load.Busy {
			return l.fetch()
		}
	case tea.KeyPressMsg, tea.MouseWheelMsg:
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
		lines = append(lines, text.LogLine(strings.TrimSuffix(string(buf[:i]), "\r")))
		buf = buf[i+1:]
	}
	l.partial = append([]byte(nil), buf...)
	l.pager.Append(lines...)
	l.pager.SetTail(text.LogLine(string(l.partial)))
}

// schedule asks for more: at once after a cut chunk, in a second while
// the job runs (or the last attempt failed), never once it is over.
func (l *Log) schedule(now bool) tea.Cmd {
	if now {
		return l.fetch()
	}
	if finished(l.job.Status, l.job.Conclusion) && l.load.Err == nil {
		return nil
	}
	l.poll++
	gen, owner := l.poll, l.id
	return tea.Tick(logEvery, func(time.Time) tea.Msg { return pollMsg{owner: owner, gen: gen} })
}

func (l *Log) SetSize(width, height int) {
	l.width, l.height = width, height
	l.pager.SetSize(width, max(height-1, 1))
}

func (l *Log) View() string {
	if !l.load.Done {
		return l.ctx.Placeholder(&l.load, "the log of "+text.OneLine(l.job.Name), l.width, l.height)
	}
	st := l.ctx.Styles
	head := icon(l.ctx, l.job.Status, l.job.Conclusion) + " " + st.Bold.Render(text.OneLine(l.job.Name)) +
		st.Dim.Render(" · "+describe(l.job.Status, l.job.Conclusion)+" · lines "+l.pager.Position())
	switch {
	case finished(l.job.Status, l.job.Conclusion):
	case l.pager.Follow:
		head += st.Accent.Render(" · following")
	default:
		head += st.Dim.Render(" · G follows")
	}
	body := l.pager.View()
	if l.pager.Len() == 0 {
		body = st.Dim.Render("No output yet.")
	}
	return common.Pad(head+"\n"+body, l.width, l.height)
}

func (l *Log) Title() string   { return text.OneLine(l.job.Name) + " log" }
func (l *Log) Animating() bool { return l.load.Busy || !finished(l.job.Status, l.job.Conclusion) }

func (l *Log) ShortHelp() []key.Binding {
	k := l.ctx.Keys
	return []key.Binding{k.Up, k.PageDown, common.Binding("G", "follow new lines", "G", "end"), k.Right, k.Back}
}

func (l *Log) FullHelp() [][]key.Binding {
	k := l.ctx.Keys
	return [][]key.Binding{l.pager.KeyHelp(), {k.Refresh, k.Back}}
}
