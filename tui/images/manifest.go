package images

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/forgehq/forge/internal/text"
	"github.com/forgehq/forge/regclient"
	"github.com/forgehq/forge/tui/common"
	"github.com/forgehq/forge/tui/components"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// manifest is what a reference resolves to.
type manifest struct {
	digest    string
	mediaType types.MediaType
	image     *regclient.ImageSummary   // a single image
	platforms []*regclient.ImageSummary // an index's images
}

// Manifest is what a tag names: an image (platform, created, layers) or a
// multi-platform index (each platform's image), as `forge image inspect`
// shows it; d deletes it.
type Manifest struct {
	ctx     *common.Context
	id      int
	repo    string
	tag     string
	load    common.Load
	m       manifest
	pager   *components.Pager
	confirm *components.Confirm
	busy    string
	width   int
	height  int
	drawnW  int
	stale   bool

	keyDelete key.Binding
}

// NewManifest returns the manifest page of repo:tag.
func NewManifest(ctx *common.Context, repo, tag string) *Manifest {
	m := &Manifest{ctx: ctx, id: ctx.NewID(), repo: repo, tag: tag, pager: components.NewPager(ctx),
		confirm: components.NewConfirm(ctx), keyDelete: common.Binding("d", "delete (asks first)", "d", "delete")}
	// A digest line is 81 cells: at 80 columns, → shows its end.
	m.pager.Sideways = true
	return m
}

func (m *Manifest) ref() string { return m.repo + ":" + m.tag }

func (m *Manifest) Init() tea.Cmd    { return m.fetch() }
func (m *Manifest) Refresh() tea.Cmd { return m.fetch() }

func (m *Manifest) fetch() tea.Cmd {
	reg, err := m.ctx.Registry()
	if err != nil {
		m.load.Fail(err)
		return nil
	}
	ctx, ref := m.ctx.Ctx, m.ref()
	return common.Fetch(m.ctx, m.id, m.load.Start(), func() (out manifest, err error) {
		r, err := reg.ParseReference(ref)
		if err != nil {
			return out, err
		}
		desc, err := reg.Descriptor(ctx, r)
		if err != nil {
			return out, err
		}
		out.digest, out.mediaType = desc.Digest.String(), desc.MediaType
		if desc.MediaType.IsIndex() {
			idx, err := desc.ImageIndex()
			if err == nil {
				out.platforms, err = regclient.Images(ctx, idx)
			}
			return out, err
		}
		img, err := desc.Image()
		if err == nil {
			out.image, err = regclient.Summarize(img)
		}
		return out, err
	})
}

func (m *Manifest) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case common.Result[manifest]:
		if ok, failed := msg.Accept(m.id, &m.load); !ok {
			return failed
		}
		m.m, m.stale = msg.Value, true
	case planMsg:
		if msg.owner == m.id {
			m.busy = ""
			return askDelete(m.ctx, m.confirm, m.id, m.repo, msg)
		}
	case deletedMsg:
		if msg.owner == m.id {
			m.busy = ""
			if msg.err == nil {
				return tea.Batch(deleted(msg), common.Close(m))
			}
			return deleted(msg)
		}
	case common.ThemeMsg:
		m.stale = true
	case tea.KeyPressMsg:
		if m.confirm.Active() {
			if msg.String() == "y" || msg.String() == "Y" {
				m.busy = "deleting"
			}
			return m.confirm.Update(msg)
		}
		if key.Matches(msg, m.keyDelete) {
			m.busy = "planning"
			return planDelete(m.ctx, m.id, m.ref())
		}
		m.pager.Update(msg)
	case tea.MouseWheelMsg:
		m.pager.Update(msg)
	}
	return nil
}

// render lays the manifest out as `forge image inspect` prints it.
func (m *Manifest) render() []string {
	st := m.ctx.Styles
	label := func(l, v string) string { return st.Label.Render(fmt.Sprintf("%-10s", l)) + v }
	lines := []string{label("Reference", m.ref()), label("Digest", m.m.digest), label("Type", describeType(m.m.mediaType))}
	if m.m.platforms != nil {
		var total int64
		for _, p := range m.m.platforms {
			total += p.Size
		}
		lines = append(lines, label("Size", text.Bytes(total)), "", st.Header.Render(fmt.Sprintf("  %-22s %-19s %9s %6s", "PLATFORM", "DIGEST", "SIZE", "LAYERS")))
		for _, p := range m.m.platforms {
			plat := p.Platform
			if plat == "" {
				plat = "-"
			}
			lines = append(lines, fmt.Sprintf("  %-22s %-19s %9s %6d", plat, text.ShortDigest(p.Digest), text.Bytes(p.Size), len(p.Layers)))
		}
		return lines
	}
	im := m.m.image
	if im.Platform != "" {
		lines = append(lines, label("Platform", im.Platform))
	}
	if im.Created != "" {
		lines = append(lines, label("Created", im.Created))
	}
	lines = append(lines, label("Config", text.ShortDigest(im.Config)), label("Size", text.Bytes(im.Size)+" in "+text.Plural(len(im.Layers), "layer", "layers")),
		"", st.Header.Render(fmt.Sprintf("  %-19s %9s  %s", "LAYER", "SIZE", "MEDIA TYPE")))
	for _, l := range im.Layers {
		lines = append(lines, fmt.Sprintf("  %-19s %9s  %s", text.ShortDigest(l.Digest), text.Bytes(l.Size), st.Dim.Render(l.MediaType)))
	}
	return lines
}

// describeType names a media type for people.
func describeType(mt types.MediaType) string {
	switch mt {
	case types.OCIImageIndex:
		return "OCI image index"
	case types.DockerManifestList:
		return "Docker manifest list"
	case types.OCIManifestSchema1:
		return "OCI image manifest"
	case types.DockerManifestSchema2:
		return "Docker image manifest v2"
	}
	return string(mt)
}

func (m *Manifest) SetSize(width, height int) {
	m.width, m.height = width, height
	m.pager.SetSize(width, max(height-1, 1))
}

func (m *Manifest) View() string {
	if !m.load.Done {
		return m.ctx.Placeholder(&m.load, "the manifest of "+m.ref(), m.width, m.height)
	}
	if m.stale || m.drawnW != m.width {
		m.pager.SetLines(m.render())
		m.drawnW, m.stale = m.width, false
	}
	return common.Pad(common.Pad(m.pager.View(), m.width, m.height-1)+"\n"+footer(m.ctx, m.confirm, m.busy, m.width), m.width, m.height)
}

func (m *Manifest) Title() string   { return text.OneLine(m.tag) }
func (m *Manifest) Capturing() bool { return m.confirm.Active() }
func (m *Manifest) Animating() bool { return m.load.Busy || m.busy != "" }

func (m *Manifest) ShortHelp() []key.Binding {
	k := m.ctx.Keys
	return []key.Binding{m.keyDelete, k.Down, k.Back}
}

func (m *Manifest) FullHelp() [][]key.Binding {
	k := m.ctx.Keys
	return [][]key.Binding{m.pager.KeyHelp(), {m.keyDelete, k.Refresh, k.Back}}
}
