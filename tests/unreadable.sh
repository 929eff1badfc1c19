#!/usr/bin/env bash
# unreadable.sh COMMAND [ARGS...]
# Runs COMMAND --kernel-file FILE with a FILE that has no read permission (mode 000) and passes
# if it is refused with exit 2 and the system's reason. Root reads such a file anyway (CI runs as
# root), so there the test is skipped (exit 77) rather than passed; bad.kernel_file_is_directory
# covers an unreadable path for every user.
set -u
file=$(mktemp "${TMPDIR:-/tmp}/unreadable.XXXXXX.cl")
trap 'rm -f "$file"' EXIT
echo "__kernel void sgemm(void) {}" >"$file"
chmod 000 "$file"
if [ -r "$file" ]; then
  echo "SKIPPED: this user ($(id -un)) can read a file with mode 000 (root ignores permissions)"
  exit 77
fi
exec "$(dirname "${BASH_SOURCE[0]}")/expect.sh" 2 "cannot read kernel file '.*': Permission denied" "$@" \
  --kernel-file "$file"
