# Sourced by scripts/setup.sh: apt_install PACKAGE... with apt-get, as root or through sudo.
#
# When another apt-get or dpkg holds the package lock (an unattended upgrade on a fresh machine,
# say), apt_install waits and retries for up to APT_WAIT seconds (default 300), saying so once;
# then it fails with the true reason in APT_ERROR (apt-get's own error lines, "no apt-get on this
# machine", ...), never with a guess. APT_RETRY is the pause between tries (default 10 s); apt-get
# itself also waits up to that long for the lock (DPkg::Lock::Timeout).
if [ -z "${SUDO+set}" ]; then  # SUDO set (even empty) by the caller is kept
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO="sudo"
fi
APT_WAIT="${APT_WAIT:-300}"
APT_RETRY="${APT_RETRY:-10}"
APT_ERROR=""
apt_updated=""

_apt_locked() {  # _apt_locked LOG: true when apt-get's output says that the lock is held
  grep -qiE 'could not get lock|unable to acquire the dpkg|unable to lock|is another process using it' "$1"
}

apt_run() {  # apt_run ARGS...: apt-get ARGS, waiting while another apt or dpkg holds the lock
  local log start said=""
  log="$(mktemp)"
  start=$SECONDS
  while :; do
    if DEBIAN_FRONTEND=noninteractive $SUDO apt-get -o "DPkg::Lock::Timeout=${APT_RETRY%.*}" "$@" >"$log" 2>&1; then
      rm -f "$log"
      return 0
    fi
    if _apt_locked "$log" && [ $((SECONDS - start)) -lt "$APT_WAIT" ]; then
      if [ -z "$said" ]; then
        echo "setup: apt is busy: $(grep -iE 'lock' "$log" | head -n 1)" >&2
        echo "setup: waiting up to ${APT_WAIT} s for it to finish, then trying again" >&2
        said=1
      fi
      sleep "$APT_RETRY"
      continue
    fi
    APT_ERROR="$(grep -E '^(E|W|sudo): ' "$log" | head -n 3 | tr '\n' ' ')"
    [ -n "$APT_ERROR" ] || APT_ERROR="$(tail -n 3 "$log" | tr '\n' ' ')"
    if _apt_locked "$log"; then
      APT_ERROR="apt was still busy after ${APT_WAIT} s (set APT_WAIT to wait longer): $APT_ERROR"
    fi
    APT_ERROR="apt-get $* failed: ${APT_ERROR% }"
    rm -f "$log"
    return 1
  done
}

apt_install() {  # apt_install PACKAGE...: true when apt-get installed them; else APT_ERROR says why
  if ! command -v apt-get >/dev/null 2>&1; then
    APT_ERROR="no apt-get on this machine (not Debian or Ubuntu)"
    return 1
  fi
  if [ -n "$SUDO" ] && ! command -v "$SUDO" >/dev/null 2>&1; then
    APT_ERROR="not root, and no sudo to run apt-get with"
    return 1
  fi
  if [ -z "$apt_updated" ]; then
    apt_run update -qq || return 1
    apt_updated=1
  fi
  apt_run install -y -qq "$@"
}
