#!/usr/bin/env bash
# unreadable.sh COMMAND [ARGS...]
# Runs COMMAND --kernel-file FILE with a FILE that has no read permission (mode 000) and passes
# if it is refused with exit 2 and the system's reason. Root reads such a file anyway (CI runs as
# root), so as root the command runs as the user nobody (setpriv), with a cache directory of its
# own for the OpenCL driver; where that is not possible (no setpriv, no user nobody, a build that
# nobody cannot reach) the test is skipped (exit 77) with the reason, never passed.
# bad.kernel_file_is_directory covers an unreadable path for every user.
set -u
file=$(mktemp "${TMPDIR:-/tmp}/unreadable.XXXXXX.cl")
home=
trap 'rm -f "$file"; [ -z "$home" ] || rm -rf "$home"' EXIT
echo "__kernel void sgemm(void) {}" >"$file"
chmod 000 "$file"
as=()
if [ -r "$file" ]; then
  if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null || ! id nobody >/dev/null 2>&1; then
    echo "SKIPPED: this user ($(id -un)) can read a file with mode 000 and cannot run the test as the user nobody"
    exit 77
  fi
  home=$(mktemp -d "${TMPDIR:-/tmp}/unreadable-home.XXXXXX")
  chmod 777 "$home"
  as=(setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups
      env HOME="$home" XDG_CACHE_HOME="$home" POCL_CACHE_DIR="$home")
  for path in "$1" "${BASH_SOURCE[0]}" "$(dirname "${BASH_SOURCE[0]}")/expect.sh"; do
    if ! "${as[@]}" test -x "$path"; then
      echo "SKIPPED: root reads a file with mode 000, and the user nobody cannot run $path"
      exit 77
    fi
  done
  if "${as[@]}" test -r "$file"; then
    echo "FAILED: the user nobody can read a file with mode 000"
    exit 1
  fi
fi
exec "${as[@]}" "$(dirname "${BASH_SOURCE[0]}")/expect.sh" 2 "cannot read kernel file '.*': Permission denied" "$@" \
  --kernel-file "$file"
