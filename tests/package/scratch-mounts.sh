# shellcheck shell=sh
# Sourced by the package tests: scratch_mounts ROOT mounts what programs run
# by chroot into ROOT expect (/proc, a read-only /sys, a /dev of its own with
# the usual character devices, /run). Call it in a mount namespace of its own
# (unshare --mount --pid --fork --kill-child), so the mounts end with it and
# the host's mount table never sees them; --pid makes /proc show only the
# namespace's processes.
scratch_mounts() {
	mount -t proc -o nosuid,nodev,noexec proc "$1/proc"
	mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$1/sys"
	mount -t tmpfs -o nosuid,noexec,mode=755 run "$1/run"
	# Not the host's /dev: a tmpfs with its own nodes, which the root may
	# write to freely.
	mount -t tmpfs -o nosuid,mode=755 dev "$1/dev"
	mknod -m 666 "$1/dev/null" c 1 3
	mknod -m 666 "$1/dev/zero" c 1 5
	mknod -m 666 "$1/dev/full" c 1 7
	mknod -m 666 "$1/dev/random" c 1 8
	mknod -m 666 "$1/dev/urandom" c 1 9
	mknod -m 666 "$1/dev/tty" c 5 0
	mkdir -m 755 "$1/dev/pts"
	mkdir -m 1777 "$1/dev/shm"
	ln -s /proc/self/fd "$1/dev/fd"
	ln -s /proc/self/fd/0 "$1/dev/stdin"
	ln -s /proc/self/fd/1 "$1/dev/stdout"
	ln -s /proc/self/fd/2 "$1/dev/stderr"
}
