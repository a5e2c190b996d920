#!/usr/bin/env bash
# The web app's API types, generated from the Go types that tygo.yaml lists and formatted by Biome,
# so the same Go source gives the same bytes on every machine.
#   api-types.sh         writes them into web/src/lib/api-types, touching only files that change
#                        (the web build is not redone for nothing)
#   api-types.sh check   fails when the files there are not what the Go types generate; changes
#                        nothing
set -euo pipefail
cd "$(dirname "$0")/.."
dir=web/src/lib/api-types
tmp=$(mktemp -d "${TMPDIR:-/tmp}/api-types.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# render writes the generated, formatted files into $tmp/out.
render() {
  mkdir "$tmp/out"
  sed "s|output_path: $dir/|output_path: $tmp/out/|" tygo.yaml >"$tmp/tygo.yaml"
  go tool tygo generate --config "$tmp/tygo.yaml"
  # tygo writes a type it has no mapping for as `unknown /* pkg.Type */`: that is no type at all.
  if grep -n 'unknown /\*' "$tmp"/out/*.ts >&2; then
    echo "map these types in tygo.yaml (type_mappings and the frontmatter's imports)" >&2
    exit 1
  fi
  local f name
  for f in "$tmp"/out/*.ts; do
    name=$(basename "$f")
    # Biome formats a file only under its own root: give it the file's place there.
    (cd web && node_modules/.bin/biome format --stdin-file-path="src/lib/api-types/$name") <"$f" >"$tmp/$name"
    mv "$tmp/$name" "$f"
  done
}

case "${1:-generate}" in
generate)
  render
  mkdir -p "$dir"
  for f in "$tmp"/out/*.ts; do
    cmp -s "$f" "$dir/$(basename "$f")" || cp "$f" "$dir/"
  done
  for f in "$dir"/*.ts; do # a package taken out of tygo.yaml leaves no file behind
    [ -e "$tmp/out/$(basename "$f")" ] || rm "$f"
  done
  ;;
check)
  render
  if ! diff -ru "$dir" "$tmp/out"; then
    echo "generated API types are stale: run make types" >&2
    exit 1
  fi
  ;;
*)
  echo "usage: $0 [check]" >&2
  exit 2
  ;;
esac
