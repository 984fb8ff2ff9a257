# env.sh, sourced by the registry benchmarks (run.sh, pull.sh, tags.sh,
# interleave.sh) from the module root: their one set of settings.
# BENCH_DIR (default /tmp/forge-bench), BENCH_ADDR (127.0.0.1:28417), FORGE
# (built when missing); forge's account from the environment; crane's from
# a docker config with static credentials (no helper process in its
# timing), and $crane; bench_images makes the 192 MiB (3 × 64 MiB) and
# 1 GiB (8 × 128 MiB) images once. FORGE_REGISTRY_URL is each script's.
export BENCH_DIR=${BENCH_DIR:-/tmp/forge-bench}
export BENCH_ADDR=${BENCH_ADDR:-127.0.0.1:28417}
export FORGE=${FORGE:-$BENCH_DIR/forge}
mkdir -p "$BENCH_DIR"
[ -x "$FORGE" ] || go build -o "$FORGE" ./cmd/forge
export FORGE_CONFIG_DIR=$BENCH_DIR/config XDG_CACHE_HOME=$BENCH_DIR/cache
export FORGE_USERNAME=admin FORGE_PASSWORD=bench-password-1234
export DOCKER_CONFIG=$BENCH_DIR/docker
mkdir -p "$DOCKER_CONFIG"
printf '{"auths": {"%s": {"auth": "%s"}}}\n' "$BENCH_ADDR" "$(printf admin:bench-password-1234 | base64)" >"$DOCKER_CONFIG/config.json"
crane=$(command -v crane || echo "$(go env GOPATH)/bin/crane")

bench_images() {
  [ -f "$BENCH_DIR/push.tar" ] || go run ./bench/registry/mkimage -layers 3 -size $((64 << 20)) -o "$BENCH_DIR/push.tar"
  [ -f "$BENCH_DIR/big.tar" ] || go run ./bench/registry/mkimage -layers 8 -size $((128 << 20)) -o "$BENCH_DIR/big.tar"
}
