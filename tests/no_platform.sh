#!/usr/bin/env bash
# no_platform.sh REGEX STEP [ARGS...]
# Runs STEP with the OpenCL ICD loader shown no driver and passes if it exits 3 with a message
# matching REGEX (expect.sh). The loader is pointed at an empty directory through every variable
# the usual loaders read: OCL_ICD_VENDORS (ocl-icd, Khronos' loader), OPENCL_VENDOR_PATH (ocl-icd)
# and OPENCL_LAYER_PATH (Khronos' layers); OCL_ICD_FILENAMES (Khronos' loader: more drivers) and
# OPENCL_LAYERS are unset.
# A loader that reads none of them (older Khronos loaders, and the copy some NVIDIA driver
# installs ship, read /etc/OpenCL/vendors only) still finds the installed drivers: the test
# then cannot make its case and exits 77, which CTest shows as skipped, not passed. That is
# decided by what --list-devices lists (a "platform N:" line), never by its exit code alone: a step
# whose --list-devices exited 0 without a platform would otherwise be skipped, not failed.
set -u
regex=$1 step=$2
shift 2
empty=$(mktemp -d "${TMPDIR:-/tmp}/no-vendors.XXXXXX")
trap 'rmdir "$empty"' EXIT
export OCL_ICD_VENDORS=$empty OPENCL_VENDOR_PATH=$empty OPENCL_LAYER_PATH=$empty
unset OCL_ICD_FILENAMES OPENCL_LAYERS
listing=$("$step" --list-devices 2>&1)
if grep -Eq '^platform [0-9]+: ' <<<"$listing"; then
  loader=$(ldd "$step" 2>/dev/null | awk '/libOpenCL/ {print $3}')
  [ -n "$loader" ] && loader=$(readlink -f "$loader")
  echo "SKIPPED: the OpenCL loader (${loader:-libOpenCL.so.1}) still finds a platform with"
  echo "OCL_ICD_VENDORS, OPENCL_VENDOR_PATH and OPENCL_LAYER_PATH at an empty directory and OCL_ICD_FILENAMES unset:"
  echo "$listing"
  exit 77
fi
"$(dirname "${BASH_SOURCE[0]}")/expect.sh" 3 "$regex" "$step" "$@"
