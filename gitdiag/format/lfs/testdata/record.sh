#!/usr/bin/env bash
# Records what the real `git lfs clean` makes of each input: gitdiag hashes
# an LFS-tracked file as the pointer git-lfs would store, and
# TestLFSPointersMatchRecordedGitLFS compares its pointers with these.
# Needs git-lfs (recorded with 3.3.0); run from this directory.
set -euo pipefail
cd "$(dirname "$0")"
rm -f ./*.in ./*.want
H=5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
V=https://git-lfs.github.com/spec/v1
input() { printf "$2" > "$1.in"; }
input text 'hello\n'
input empty ''
input pointer "version $V\noid sha256:$H\nsize 6\n"
input pointer-blank-lines "version $V\n\noid sha256:$H\nsize 6\n\n\n"
input pointer-leading-blanks "  \n\nversion $V\noid sha256:$H\nsize 6"
input pointer-crlf "version $V\r\noid sha256:$H\r\nsize 6\r\n"
input pointer-old-version "version http://git-media.io/v/2\noid sha256:$H\nsize 6\n"
input pointer-hawser-version "version https://hawser.github.com/spec/v1\noid sha256:$H\nsize 6\n"
input pointer-size-plus "version $V\noid sha256:$H\nsize +6\n"
input pointer-size-trailing-space "version $V\noid sha256:$H\nsize 6 \n"
input pointer-with-extension "version $V\next-0-foo sha256:$H\noid sha256:$H\nsize 6\n"
input pointer-extension-after-oid "version $V\noid sha256:$H\next-1-bar sha256:$H\nsize 6\n"
input not-pointer-extra-line "version $V\noid sha256:$H\nsize 6\nextra line\n"
input not-pointer-short-oid "version $V\noid sha256:abc\nsize 6\n"
input not-pointer-long-oid "version $V\noid sha256:${H}00\nsize 6\n"
input not-pointer-upper-hex "version $V\noid sha256:$(echo $H | tr a-f A-F)\nsize 6\n"
input not-pointer-sha1 "version $V\noid sha1:$H\nsize 6\n"
input not-pointer-negative-size "version $V\noid sha256:$H\nsize -1\n"
input not-pointer-no-size "version $V\noid sha256:$H\n"
input not-pointer-two-spaces "version  $V\noid sha256:$H\nsize 6\n"
input not-pointer-tab "version\t$V\noid sha256:$H\nsize 6\n"
input not-pointer-version-trailing-space "version $V \noid sha256:$H\nsize 6\n"
input not-pointer-unknown-version "version https://example.com/v9\noid sha256:$H\nsize 6\n"
input not-pointer-bad-extension-key "version $V\next-x-foo sha256:$H\noid sha256:$H\nsize 6\n"
input not-pointer-bad-extension-value "version $V\next-0-foo sha1:abc\noid sha256:$H\nsize 6\n"
input not-pointer-duplicate-priority "version $V\next-0-foo sha256:$H\next-0-bar sha256:$H\noid sha256:$H\nsize 6\n"
(printf "version $V\noid sha256:$H\nsize 6\n"; head -c 897 /dev/zero | tr '\0' ' ') > pointer-padded-to-1023-bytes.in
(printf "version $V\noid sha256:$H\nsize 6\n"; head -c 898 /dev/zero | tr '\0' ' ') > not-pointer-padded-to-1024-bytes.in
head -c 3000 /dev/urandom > binary.in
# git-lfs installs its hooks into the repository it runs in: run it in a
# directory of its own, outside this one.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp ./*.in "$tmp"
for f in ./*.in; do
  (cd "$tmp" && git lfs clean -- "$f" < "$f") > "${f%.in}.want"
done
