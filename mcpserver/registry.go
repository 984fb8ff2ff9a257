package mcpserver

import (
	"context"
	"fmt"
	"slices"

	"github.com/forgehq/forge/regclient"
	"github.com/google/go-containerregistry/pkg/name"
)

// RegistryRepos is a page of the registry's repositories.
type RegistryRepos struct {
	Repositories []string `json:"repositories"`
	Note         string   `json:"note,omitempty"`
}

// TagsIn names a registry repository and a page of its tags.
type TagsIn struct {
	Repository string `json:"repository" jsonschema:"the image repository: USER/NAME on the profile's registry (HOST/PATH only for a host the user allowed)"`
	Paging
}

// ImageTag is a tag with its image's digest and size.
type ImageTag struct {
	Name      string `json:"name"`
	Digest    string `json:"digest,omitempty"`
	ImageSize int64  `json:"image_size,omitempty"`
	Platforms int    `json:"platforms,omitempty"`
	UpdatedAt string `json:"updated_at,omitempty"`
}

// TagList is a page of a repository's tags.
type TagList struct {
	Repository string     `json:"repository"`
	Tags       []ImageTag `json:"tags"`
	Note       string     `json:"note,omitempty"`
}

// ImageIn names an image.
type ImageIn struct {
	Reference string `json:"reference" jsonschema:"the image: USER/NAME:TAG or USER/NAME@sha256:... (with a HOST/ in front only for a host the user allowed)"`
}

// Image is an image's manifest, summed up (the manifest itself as text,
// cut as every string is).
type Image struct {
	regclient.Inspection
	Manifest string `json:"manifest"`
}

// Deleted says what image_tag_delete did.
type Deleted struct {
	Deleted string `json:"deleted"`
}

func registryTools() []toolDef {
	return []toolDef{
		handle("registry_repositories", registryRepos),
		handle("image_tags", imageTags),
		handle("image_manifest", imageManifest),
		handle("image_tag_delete", deleteTag),
	}
}

func registryRepos(ctx context.Context, s *Server, in Paging) (RegistryRepos, error) {
	c, err := s.opts.Backend.Registry()
	if err != nil {
		return RegistryRepos{}, err
	}
	names, err := c.Catalog(ctx)
	if err != nil {
		return RegistryRepos{}, err
	}
	page, note, err := pageOfSlice(names, in)
	return RegistryRepos{Repositories: page, Note: note}, err
}

func imageTags(ctx context.Context, s *Server, in TagsIn) (TagList, error) {
	c, err := s.opts.Backend.Registry()
	if err != nil {
		return TagList{}, err
	}
	repo, err := c.ParseRepository(in.Repository)
	if err != nil {
		return TagList{}, err
	}
	if err := s.allowedRegistry(c, repo); err != nil {
		return TagList{}, err
	}
	tags, _, err := c.Tags(ctx, repo)
	if err != nil {
		return TagList{}, err
	}
	page, note, err := pageOfSlice(tags, in.Paging)
	if err != nil {
		return TagList{}, err
	}
	if err := c.Sizes(ctx, repo, page); err != nil {
		return TagList{}, err
	}
	return TagList{Repository: repo.String(), Tags: each(page, imageTagOf), Note: note}, nil
}

func imageTagOf(t regclient.Tag) ImageTag {
	it := ImageTag{Name: t.Name, Digest: t.Digest, ImageSize: t.ImageSize, Platforms: t.Platforms}
	if !t.UpdatedAt.IsZero() {
		it.UpdatedAt = t.UpdatedAt.UTC().Format("2006-01-02T15:04:05Z")
	}
	return it
}

func imageManifest(ctx context.Context, s *Server, in ImageIn) (Image, error) {
	c, err := s.opts.Backend.Registry()
	if err != nil {
		return Image{}, err
	}
	ref, err := s.reference(c, in.Reference)
	if err != nil {
		return Image{}, err
	}
	desc, err := c.Descriptor(ctx, ref)
	if err != nil {
		return Image{}, err
	}
	insp, err := regclient.Inspect(ctx, ref.Name(), desc)
	if err != nil {
		return Image{}, err
	}
	return Image{Inspection: *insp, Manifest: string(insp.Manifest)}, nil
}

func deleteTag(ctx context.Context, s *Server, in ImageIn) (Deleted, error) {
	c, err := s.opts.Backend.Registry()
	if err != nil {
		return Deleted{}, err
	}
	ref, err := s.reference(c, in.Reference)
	if err != nil {
		return Deleted{}, err
	}
	tag, ok := ref.(name.Tag)
	if !ok {
		return Deleted{}, fmt.Errorf("%s is not a tag: image_tag_delete deletes a tag (USER/NAME:TAG)", ref)
	}
	if err := c.CheckWrite(ref.Context(), "delete"); err != nil {
		return Deleted{}, err
	}
	deleted, err := c.DeleteTag(ctx, tag)
	if err != nil {
		return Deleted{}, err
	}
	if !deleted {
		return Deleted{}, fmt.Errorf("the registry deletes no tag alone, only the manifest with every tag naming it: use `forge image delete %s` in a terminal", tag)
	}
	return Deleted{Deleted: tag.String()}, nil
}

// reference parses an image reference a tool names, on a registry the
// image tools may contact.
func (s *Server) reference(c *regclient.Client, ref string) (name.Reference, error) {
	r, err := c.ParseReference(ref)
	if err != nil {
		return nil, err
	}
	return r, s.allowedRegistry(c, r.Context())
}

// allowedRegistry refuses, before any request, a repository on another
// registry than the profile's, unless the user allowed its host when
// starting the server (--allow-registry): the model must not choose
// where forge sends requests (a host it names would learn what the
// model was told to send, and answer into forge).
func (s *Server) allowedRegistry(c *regclient.Client, repo name.Repository) error {
	host := repo.RegistryStr()
	if host == c.Host() || slices.Contains(s.opts.RegistryHosts, host) {
		return nil
	}
	return fmt.Errorf("%s is not the profile's registry (%s): the image tools contact only it, unless forge mcp serve is started with --allow-registry %s", host, c.Host(), host)
}

// withNoError is a slice as the sequence pageOf reads.
func withNoError[T any](s []T) func(func(T, error) bool) {
	return func(yield func(T, error) bool) {
		for _, v := range s {
			if !yield(v, nil) {
				return
			}
		}
	}
}
