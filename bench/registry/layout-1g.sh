#!/usr/bin/env bash
# layout-1g.sh [DIR]: an OCI layout (default ./layout) holding one image,
# tag 1, with a single 1 GiB layer of random bytes (uncompressed, so making
# it costs no gzip time). For the reference registry's memory figures.
set -euo pipefail
d=${1:-layout}
rm -rf "$d"; mkdir -p "$d/blobs/sha256"
head -c $((1<<30)) /dev/urandom > layer
ld=$(sha256sum layer | cut -d' ' -f1); mv layer "$d/blobs/sha256/$ld"
printf '{"architecture":"amd64","os":"linux","rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"config":{}}' "$ld" > cfg
cd_=$(sha256sum cfg | cut -d' ' -f1); cs=$(stat -c %s cfg); mv cfg "$d/blobs/sha256/$cd_"
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%s}]}' "$cd_" "$cs" "$ld" $((1<<30)) > man
md=$(sha256sum man | cut -d' ' -f1); ms=$(stat -c %s man); mv man "$d/blobs/sha256/$md"
printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"annotations":{"org.opencontainers.image.ref.name":"1"}}]}' "$md" "$ms" > "$d/index.json"
echo '{"imageLayoutVersion":"1.0.0"}' > "$d/oci-layout"
