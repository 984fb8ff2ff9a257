package regclient

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Inspection is what an image's manifest says of it: an image's digest,
// size (config and layers, compressed), platform and layers, or an
// index's images (Platforms) and their total size; `forge image inspect`
// prints it, and its JSON is inspect's.
type Inspection struct {
	Reference string          `json:"reference"`
	Digest    string          `json:"digest"`
	MediaType string          `json:"media_type"`
	Size      int64           `json:"size"`
	Platform  string          `json:"platform,omitempty"`
	Created   string          `json:"created,omitempty"`
	Config    string          `json:"config,omitempty"`
	Layers    []LayerDetail   `json:"layers,omitempty"`
	Platforms []*ImageSummary `json:"platforms,omitempty"`
	Manifest  json.RawMessage `json:"manifest"`
}

// Inspect reads what desc (from Descriptor) describes: for an index,
// each of its images' manifests.
func Inspect(ctx context.Context, reference string, desc *remote.Descriptor) (*Inspection, error) {
	in := &Inspection{Reference: reference, Digest: desc.Digest.String(), MediaType: string(desc.MediaType), Manifest: desc.Manifest}
	if desc.MediaType.IsIndex() {
		idx, err := desc.ImageIndex()
		if err != nil {
			return nil, err
		}
		if in.Platforms, err = Images(ctx, idx); err != nil {
			return nil, fmt.Errorf("%s: %w", reference, err)
		}
		for _, p := range in.Platforms {
			in.Size += p.Size
		}
		return in, nil
	}
	img, err := desc.Image()
	if err != nil {
		return nil, err
	}
	s, err := Summarize(img)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", reference, err)
	}
	in.Size, in.Platform, in.Created, in.Config, in.Layers = s.Size, s.Platform, s.Created, s.Config, s.Layers
	return in, nil
}
