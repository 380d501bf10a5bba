# Sourced by .ci/run and the tools/ci scripts that install Debian packages:
# `apt_install PACKAGE...` runs apt-get update + install, through sudo when
# not root, up to three attempts (mirrors fail now and then; the dpkg lock
# may be held by another CI step for a while). Returns non-zero if all
# three failed; the caller decides whether that is fatal.
apt_install() {
    local sudo="" attempt
    if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
    for attempt in 1 2 3; do
        if $sudo apt-get -o DPkg::Lock::Timeout=600 update -q \
            && $sudo apt-get -o DPkg::Lock::Timeout=600 install -y -q --no-install-recommends "$@"; then
            return 0
        fi
        echo "apt attempt $attempt of 3 failed" >&2
        [ "$attempt" = 3 ] || sleep $((attempt * 5))
    done
    return 1
}
