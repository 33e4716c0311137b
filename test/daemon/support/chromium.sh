#!/bin/sh
# The browser the real daemon launches (its --chrome-path): Debian's Chromium with what a closed
# machine needs on top of the daemon's own flags. /dev/shm is small in containers; the browser's
# background connections (component updates, sync) would be refused many at a time here.
exec /usr/bin/chromium --disable-dev-shm-usage --disable-component-update --disable-background-networking --disable-sync --disable-gpu "$@"
