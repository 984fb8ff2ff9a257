# Shortcuts; each target is one command you can also run by hand.

.PHONY: test docs release-check

# The whole CI: gofmt, go vet, staticcheck, go test ./...
test:
	bash .ci/run

# Regenerate the man pages and command reference under docs/.
docs:
	go run ./tools/gendocs

# Optional, slow (~10 min): goreleaser check and a snapshot release in dist/.
release-check:
	bash .ci/release-check
