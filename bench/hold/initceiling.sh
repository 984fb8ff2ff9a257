#!/bin/sh
# initceiling.sh: what `forge --version` would cost if the heaviest package
# inits of forge's dependencies did no work (bench/README.md, "Start-up:
# the ceiling of lazy dependencies"). It copies five modules from the module
# cache into a scratch directory, empties their init work (gojq's builtin
# tables, go-digest's, gotenv's and yaml's regexps, snapref's CRC table),
# points a copy of forge at them with replace directives and builds it as
# releases are built. The result is for measuring only: --jq, digests and
# dotenv files do not work in it. Nothing here is committed or shipped.
#
#   sh bench/hold/initceiling.sh /tmp/ceil    # then:
#   perf stat -r 200 -e task-clock,page-faults /tmp/ceil/forge-ceil --version
set -eu
out=${1:?usage: initceiling.sh DIR}
src=$(git rev-parse --show-toplevel)
mods=$(go env GOMODCACHE)
rm -rf "$out" && mkdir -p "$out"
git -C "$src" archive HEAD | tar -x -C "$out" --one-top-level=forge
for m in github.com/itchyny/gojq github.com/opencontainers/go-digest \
	github.com/klauspost/compress github.com/subosito/gotenv go.yaml.in/yaml/v3; do
	v=$(cd "$src" && go list -m -f '{{.Version}}' "$m")
	cp -r "$mods/$m@$v" "$out/$(echo "$m" | tr / _)"
	chmod -R u+w "$out/$(echo "$m" | tr / _)"
	echo "replace $m => ../$(echo "$m" | tr / _)" >>"$out/forge/go.mod"
done
cd "$out"
sed -i 's/^func init() {/func initBuiltins() {/' github.com_itchyny_gojq/builtin.go
sed -i 's/^func init() {/func initFuncs() {/' github.com_itchyny_gojq/func.go
sed -i 's/regexp.MustCompile(.*)\(,\?\)$/nil\1/' github.com_opencontainers_go-digest/algorithm.go
sed -i 's/^var \(DigestRegexp[A-Za-z]*\) = .*/var \1 *regexp.Regexp/' github.com_opencontainers_go-digest/digest.go
sed -i 's/^\t\(lineRgx\|unescapeRgx\|varRgx\)\( *\)= .*/\t\1\2*regexp.Regexp = nil/; s/^var varNameRgx = .*/var varNameRgx *regexp.Regexp/' \
	github.com_subosito_gotenv/gotenv.go
sed -i 's/^var crcTable = .*/var crcTable *crc32.Table/' github.com_klauspost_compress/internal/snapref/snappy.go
sed -i 's/^var base60float = .*/var base60float *regexp.Regexp/' go.yaml.in_yaml_v3/encode.go
sed -i 's/^var yamlStyleFloat = .*/var yamlStyleFloat *regexp.Regexp/' go.yaml.in_yaml_v3/resolve.go
cd forge
CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$out/forge-ceil" ./cmd/forge
echo "$out/forge-ceil"
