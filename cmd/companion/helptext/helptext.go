// Package helptext is the help of the commands forge runs in a companion
// (Serve): forge's stand-in for the command (companion.NewCmd) and the
// companion's own command (cmd/serve) both show it, so forge's help and
// forge-server's say the same, and neither links the other (forge-server
// does not link package companion, which works with forge's Factory).
package helptext

// A Command is the name, summary and examples of one of forge-server's
// commands that forge offers as its own.
type Command struct{ Name, Short, Example string }

// Serve is the command forge runs in forge-server.
var Serve = Command{"serve", "Run the reference server of the whole service on this machine", `  forge serve
  forge serve --demo --env-file forge.env
  forge serve --addr 127.0.0.1:9000 --data ~/.local/share/forge-server --admin-password 'a long password'`}
