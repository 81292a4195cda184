#!/usr/bin/env bash
# Runs one of the README's quick-start commands (demo or test) in a fresh
# Debian 12 root made by debootstrap (minbase: not even a compiler), on a
# clean clone of this repository's HEAD with shared/ beside it, and prints
# how long it took: the check that the quick start works, and how fast, on a
# bare machine. Needs root, debootstrap and network access to Debian's
# mirror and PyPI. The host's local CA certificates
# (/usr/local/share/ca-certificates) and /etc/pip.conf are copied in, as a
# machine behind the same proxy would have them.
#
#   scripts/fresh-root.sh demo|test [DIR]     (DIR: default /var/tmp/approx-fresh-root, replaced)
set -euo pipefail
what=${1:-}
case "$what" in
demo | test) ;;
*) echo "usage: scripts/fresh-root.sh demo|test [DIR]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${2:-/var/tmp/approx-fresh-root}
[ "$(id -u)" -eq 0 ] || { echo "fresh-root: needs root (debootstrap, chroot, mounts)" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "fresh-root: needs debootstrap (apt-get install debootstrap)" >&2; exit 1; }
[ -d "$root/../shared" ] || { echo "fresh-root: no shared/ beside $root" >&2; exit 1; }
unmount() { for m in dev/pts dev sys proc; do umount "$dir/$m" 2>/dev/null || true; done; }
unmount
rm -rf "$dir"
start=$(date +%s)
echo "fresh-root: debootstrap bookworm into $dir" >&2
debootstrap --variant=minbase bookworm "$dir" http://deb.debian.org/debian >"$dir.debootstrap.log" 2>&1 ||
  { echo "fresh-root: debootstrap failed (see $dir.debootstrap.log)" >&2; exit 1; }
if [ -d /etc/apt/sources.list.d ] && ls /etc/apt/sources.list.d/*.sources >/dev/null 2>&1; then
  cp /etc/apt/sources.list.d/*.sources "$dir/etc/apt/sources.list.d/" && rm -f "$dir/etc/apt/sources.list"
fi
cp /etc/resolv.conf "$dir/etc/"
mkdir -p "$dir/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$dir/usr/local/share/ca-certificates/" 2>/dev/null || true
[ ! -f /etc/pip.conf ] || cp /etc/pip.conf "$dir/etc/pip.conf"
mkdir -p "$dir/root/ci"
git clone -q "$root" "$dir/root/ci/main"
cp -a "$root/../shared" "$dir/root/ci/shared"
trap unmount EXIT
for m in proc sys dev dev/pts; do mount --bind "/$m" "$dir/$m"; done
echo "fresh-root: debootstrap and copies took $(( $(date +%s) - start )) s; running scripts/$what.sh" >&2
start=$(date +%s)
rc=0
chroot "$dir" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  TERM=dumb LANG=C.UTF-8 bash -c "cd /root/ci/main && ./scripts/$what.sh" || rc=$?
echo "fresh-root: scripts/$what.sh exited $rc after $(( $(date +%s) - start )) s" >&2
exit $rc
