# Source or run: installs Debian's user-mode QEMU when missing, and exports HALLUCHECK_QEMU_X86 for
# the test that runs the bundled examples on an emulated processor without VNNI instructions
# (tests/models/test_unsigned_weights.py): the same reports must come out there as here.
if ! command -v qemu-x86_64 >/dev/null 2>&1; then
  echo "setup-qemu: installing qemu-user from Debian" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user >&2
fi
export HALLUCHECK_QEMU_X86="$(command -v qemu-x86_64)"
