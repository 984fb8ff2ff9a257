package cmdutil

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/forgehq/forge/client"
)

// NotOffered explains the failure of a request to an endpoint the
// specification does not list (cancelling a run, removing a collaborator):
// a server without that endpoint answers 405, or 404 (client.NotOffered) —
// and a 404 may also mean the resource is not there. So on a 404 forge asks,
// through the spec's own endpoints, whether the resource is there (there):
// when it is, the endpoint is what is missing; when it is not, or there
// fails, that is the error to show. what names the action ("cancelling
// runs").
func NotOffered(err error, what string, there func() (bool, error)) error {
	var ae *client.Error
	if !client.NotOffered(err) || !errors.As(err, &ae) {
		return err
	}
	if ae.StatusCode == http.StatusNotFound {
		ok, thereErr := there()
		if thereErr != nil {
			return thereErr
		}
		if !ok {
			return err
		}
	}
	return fmt.Errorf("this service does not offer %s (%s %s answered %d %s)", what, ae.Method, ae.URL, ae.StatusCode, http.StatusText(ae.StatusCode))
}
