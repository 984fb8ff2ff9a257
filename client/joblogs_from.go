package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// JobLogsFrom opens a job's log from byte offset on, asking with
// "Range: bytes=OFFSET-" so that a follower of a running job fetches only
// the lines it has not seen. It returns where the body starts in the log:
// offset when the server honoured the range; 0 when it answered with the
// whole log (a server without range support: the caller skips what it
// has); offset with an empty body when there is nothing new yet (416).
// The caller reads and closes the body.
func (s *ActionsService) JobLogsFrom(ctx context.Context, repo RepoName, jobID, offset int64) (io.ReadCloser, int64, error) {
	if offset <= 0 {
		body, err := s.JobLogs(ctx, repo, jobID)
		return body, 0, err
	}
	c := s.c
	u, err := c.resolve(repo.path("actions", "jobs", strconv.FormatInt(jobID, 10), "logs"))
	if err != nil {
		return nil, 0, err
	}
	header := http.Header{"Range": {"bytes=" + strconv.FormatInt(offset, 10) + "-"}}
	for attempt := 0; ; attempt++ {
		resp, err := c.streamAttempt(ctx, http.MethodGet, u, nil, header, false)
		if err == nil {
			if resp.StatusCode == http.StatusPartialContent {
				return resp.Body, offset, nil
			}
			return resp.Body, 0, nil
		}
		var apiErr *Error
		if errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusRequestedRangeNotSatisfiable {
			return io.NopCloser(strings.NewReader("")), offset, nil
		}
		wait, ok := c.retryable(ctx, http.MethodGet, attempt, err)
		if !ok {
			return nil, 0, err
		}
		c.noteWait(wait, err)
		if err := c.sleep(ctx, wait); err != nil {
			return nil, 0, err
		}
	}
}
