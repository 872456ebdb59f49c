# Build, install and package Pasteboard, the way packagers expect of a Linux tool.
#
#   make                          swift build -c release
#   make install                  build if the sources changed, then install under PREFIX
#   make uninstall                remove what make install put under PREFIX
#   make deb                      a Debian package of the tree, in .build/deb/ (dpkg-deb)
#
#   PREFIX=/usr/local             where to install (an absolute path); PREFIX=$HOME/.local for one user
#   DESTDIR=/tmp/stage            stage the install under DESTDIR (absolute), as packagers do
#   SWIFT_BUILD_DIR=.build/debug  install the programs already built there, without building
#
# Every directory below has a variable of its own (BINDIR, MANDIR, SYSTEMDUSERUNITDIR, ...);
# `make uninstall` takes the same variables as the install it undoes.

PREFIX ?= /usr/local
DESTDIR ?=
SWIFT ?= swift
INSTALL ?= install

# A trailing slash would double in the paths written into the systemd units.
override PREFIX := $(patsubst %/,%,$(PREFIX))
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/pasteboard
PKGDATADIR ?= $(DATADIR)/pasteboard
PKGLIBDIR ?= $(PREFIX)/lib/pasteboard
# pb under the names of the tools it stands in for, off PATH until a user puts it there.
LINKDIR ?= $(PKGLIBDIR)/bin
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
FISHCOMPDIR ?= $(DATADIR)/fish/vendor_completions.d
# shared-mime-info's database: the packages/ of its sources; the rest update-mime-database writes.
MIMEDIR ?= $(DATADIR)/mime
# systemd's user manager reads <prefix>/lib/systemd/user for /usr and /usr/local, but for a home
# directory only ~/.local/share/systemd/user (systemd-analyze --user unit-paths).
ifneq ($(filter $(HOME)/%,$(PREFIX)),)
SYSTEMDUSERUNITDIR ?= $(DATADIR)/systemd/user
else
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
endif

# What is installed. pasteboard-bench (measurements against tools a user does not have) and
# pasteboard-fuzz (the fuzzer) are for developers of the tree and stay in it.
PROGRAMS = pb pasteboardd pasteboard-bridge gallery
COMPLETED = pb gallery
# The names `pb install-links` makes (InstallTests holds them equal).
LINKS = pbcopy pbpaste xclip xsel wl-copy wl-paste
MANPAGES = $(sort $(wildcard man/*.[1-8]))
UNITS = pasteboardd.socket pasteboardd.service pasteboard-bridge.service
PKGDATA = Config/types.json Config/gallery-types.json Config/pasteboardd.conf
MIMEXML = Config/mime/pasteboard.xml
DOCS = README.md

INSTALLED = $(addprefix $(BINDIR)/,$(PROGRAMS)) $(addprefix $(LINKDIR)/,$(LINKS)) \
    $(foreach page,$(MANPAGES),$(MANDIR)/man$(subst .,,$(suffix $(page)))/$(notdir $(page))) \
    $(addprefix $(BASHCOMPDIR)/,$(COMPLETED)) $(addprefix $(ZSHCOMPDIR)/_,$(COMPLETED)) \
    $(foreach tool,$(COMPLETED),$(FISHCOMPDIR)/$(tool).fish) \
    $(addprefix $(SYSTEMDUSERUNITDIR)/,$(UNITS)) $(addprefix $(PKGDATADIR)/,$(notdir $(PKGDATA))) \
    $(MIMEDIR)/packages/$(notdir $(MIMEXML)) $(addprefix $(DOCDIR)/,$(DOCS))

# The paths are checked before anything is built or written: a relative one would land below
# whatever directory make runs in, and a blank would split into two paths.
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
  ifneq ($(words $(PREFIX)),1)
    $(error PREFIX must be one absolute path without blanks, not "$(PREFIX)")
  endif
  ifeq ($(filter /%,$(PREFIX)),)
    $(error PREFIX must be an absolute path, not "$(PREFIX)" (for your home directory: PREFIX=$$HOME/.local))
  endif
  ifneq ($(DESTDIR),)
    ifneq ($(words $(DESTDIR)),1)
      $(error DESTDIR must be one absolute path without blanks, not "$(DESTDIR)")
    endif
    ifeq ($(filter /%,$(DESTDIR)),)
      $(error DESTDIR must be an absolute path, not "$(DESTDIR)")
    endif
  endif
endif

.ONESHELL:
SHELL = /bin/sh
.SHELLFLAGS = -eu -c
.PHONY: all build install uninstall deb help
.DELETE_ON_ERROR:

all: build

help:
	@sed -n '1,/^$$/p' Makefile

ifdef SWIFT_BUILD_DIR
# Programs someone else built (the tests install the debug build they run on): nothing to build.
BUILT = $(SWIFT_BUILD_DIR)
build:
	@for program in $(PROGRAMS); do
	    [ -x "$(BUILT)/$$program" ] || {
	        echo "make: no $$program in SWIFT_BUILD_DIR=$(BUILT): build it first (swift build -c release), or leave SWIFT_BUILD_DIR out and make builds it" >&2
	        exit 1
	    }
	done
else
BUILT = .build/release
STAMP = .build/make-release.stamp
build: $(STAMP)
# Built again when a source or the manifest is newer than the last build. Not as root in a tree
# someone else owns: `sudo make install` would leave root's files in their .build.
$(STAMP): Package.swift $(wildcard Package.resolved) $(shell find Sources -type f)
	@if [ "$$(id -u)" = 0 ] && [ "$$(stat -c %u .)" != 0 ]; then
	    echo "make: the release build is missing or older than the sources; build it as the owner of the tree first (make), then install as root" >&2
	    exit 1
	fi
	$(SWIFT) build -c release
	touch $@
endif

install: build
	@umask 022
	generated=$$(mktemp -d)
	trap 'rm -rf "$$generated"' EXIT
	# The units start the installed programs: their ExecStart names ~/.local/bin as committed.
	for unit in $(UNITS); do
	    sed 's|^ExecStart=%h/\.local/bin/|ExecStart=$(BINDIR)/|' "Config/systemd/$$unit" > "$$generated/$$unit"
	    if grep -q '^ExecStart=' "$$generated/$$unit" && ! grep -q '^ExecStart=$(BINDIR)/' "$$generated/$$unit"; then
	        echo "make: Config/systemd/$$unit: its ExecStart no longer names %h/.local/bin/, which make install replaces" >&2
	        exit 1
	    fi
	done
	# ArgumentParser starts the bash script with #!/bin/bash, but bash-completion sources it.
	for tool in $(COMPLETED); do
	    for shell in bash zsh fish; do
	        "$(BUILT)/$$tool" --generate-completion-script $$shell > "$$generated/$$tool.$$shell"
	    done
	    sed -i '1{/^#!/d}' "$$generated/$$tool.bash"
	done
	echo "installing under $(DESTDIR)$(PREFIX)"
	$(INSTALL) -d -m 0755 $(addprefix $(DESTDIR),$(BINDIR) $(LINKDIR) $(BASHCOMPDIR) $(ZSHCOMPDIR) $(FISHCOMPDIR) \
	    $(SYSTEMDUSERUNITDIR) $(PKGDATADIR) $(MIMEDIR)/packages $(DOCDIR) $(sort $(foreach page,$(MANPAGES),$(MANDIR)/man$(subst .,,$(suffix $(page))))))
	$(INSTALL) -m 0755 $(addprefix $(BUILT)/,$(PROGRAMS)) "$(DESTDIR)$(BINDIR)"
	for name in $(LINKS); do
	    ln -sfr "$(DESTDIR)$(BINDIR)/pb" "$(DESTDIR)$(LINKDIR)/$$name"
	done
	for page in $(MANPAGES); do
	    section=$${page##*.}
	    $(INSTALL) -m 0644 "$$page" "$(DESTDIR)$(MANDIR)/man$$section"
	done
	for tool in $(COMPLETED); do
	    $(INSTALL) -m 0644 "$$generated/$$tool.bash" "$(DESTDIR)$(BASHCOMPDIR)/$$tool"
	    $(INSTALL) -m 0644 "$$generated/$$tool.zsh" "$(DESTDIR)$(ZSHCOMPDIR)/_$$tool"
	    $(INSTALL) -m 0644 "$$generated/$$tool.fish" "$(DESTDIR)$(FISHCOMPDIR)/$$tool.fish"
	done
	$(INSTALL) -m 0644 $(addprefix "$$generated"/,$(UNITS)) "$(DESTDIR)$(SYSTEMDUSERUNITDIR)"
	$(INSTALL) -m 0644 $(PKGDATA) "$(DESTDIR)$(PKGDATADIR)"
	$(INSTALL) -m 0644 $(MIMEXML) "$(DESTDIR)$(MIMEDIR)/packages"
	$(INSTALL) -m 0644 $(DOCS) "$(DESTDIR)$(DOCDIR)"
	# A staged install (DESTDIR) leaves the database to its package manager, as Debian's trigger does.
	if [ -z "$(DESTDIR)" ] && command -v update-mime-database >/dev/null; then
	    update-mime-database "$(MIMEDIR)"
	fi

# The files of an install, then the directories that are Pasteboard's alone; the shared ones
# (bin, man1, the completion directories, ...) stay, as other programs' files live there too.
uninstall:
	@echo "removing Pasteboard from $(DESTDIR)$(PREFIX)"
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	for directory in $(addprefix $(DESTDIR),$(PKGDATADIR) $(DOCDIR) $(LINKDIR) $(PKGLIBDIR)); do
	    [ ! -d "$$directory" ] || rmdir "$$directory" \
	        || echo "make: kept $$directory: it holds files make install did not put there" >&2
	done
	# Everything in the database but packages/ is written by update-mime-database from
	# packages/: with no source left in it, all of it goes; otherwise it is written again.
	mime=$(DESTDIR)$(MIMEDIR)
	if [ -d "$$mime/packages" ] && [ -z "$$(ls -A "$$mime/packages")" ]; then
	    rm -rf "$$mime"
	elif [ -z "$(DESTDIR)" ] && [ -d "$$mime/packages" ] && command -v update-mime-database >/dev/null; then
	    update-mime-database "$$mime"
	fi

# A binary package of this tree, made with Debian's own tools: the install above staged under
# .build/deb/root with PREFIX=/usr, finished as Debian policy asks (programs stripped, manual
# pages and documentation compressed with gzip -9n, the copyright file, a changelog, md5sums,
# dependencies from dpkg-shlibdeps), then dpkg-deb. The inputs are in Config/debian.
DEBDIR = .build/deb
deb: build
	@umask 022
	root=$(CURDIR)/$(DEBDIR)/root
	rm -rf "$$root"
	$(MAKE) --no-print-directory install DESTDIR="$$root" PREFIX=/usr ZSHCOMPDIR=/usr/share/zsh/vendor-completions
	doc=$$root/usr/share/doc/pasteboard
	version=$$("$(BUILT)/pb" --version)
	architecture=$$(dpkg --print-architecture)
	strip --strip-unneeded --remove-section=.comment --remove-section=.note $(addprefix "$$root/usr/bin/",$(PROGRAMS))
	for notice in .build/checkouts/*/NOTICE.txt; do
	    package=$${notice#.build/checkouts/}
	    $(INSTALL) -m 0644 "$$notice" "$$doc/NOTICE.$${package%%/*}.txt"
	done
	gzip -9n "$$root"/usr/share/man/man*/* "$$doc"/*
	$(INSTALL) -m 0644 Config/debian/copyright "$$doc/copyright"
	# The changelog's date and the files' times are the commit's, so that a rebuild of the same
	# commit makes the same package (SOURCE_DATE_EPOCH, which dpkg-deb reads).
	if epoch=$$(git log -1 --format=%ct 2>/dev/null); then
	    export SOURCE_DATE_EPOCH=$$epoch
	    commit=$$(git log -1 --format=' (commit %h)')
	else
	    epoch=$$(date +%s) commit=
	fi
	sed -e "s/@VERSION@/$$version/" -e "s/@COMMIT@/$$commit/" -e "s/@DATE@/$$(LC_ALL=C TZ=UTC date -R -d "@$$epoch")/" \
	    Config/debian/changelog | gzip -9n > "$$doc/changelog.gz"
	$(INSTALL) -D -m 0644 Config/debian/lintian-overrides "$$root/usr/share/lintian/overrides/pasteboard"
	$(INSTALL) -d -m 0755 "$$root/DEBIAN" "$(DEBDIR)/shlibdeps/debian"
	# dpkg-shlibdeps reads the debian/control of the directory it runs in; pb is static.
	printf 'Source: pasteboard\n\nPackage: pasteboard\nArchitecture: any\n' > "$(DEBDIR)/shlibdeps/debian/control"
	depends=$$(cd "$(DEBDIR)/shlibdeps" && dpkg-shlibdeps -O $(addprefix "$$root/usr/bin/",$(filter-out pb,$(PROGRAMS))))
	depends=$${depends#shlibs:Depends=}
	(cd "$$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$$root/DEBIAN/md5sums"
	sed -e "s/@VERSION@/$$version/" -e "s/@ARCHITECTURE@/$$architecture/" -e "s/@DEPENDS@/$$depends/" \
	    -e "s/@INSTALLED_SIZE@/$$(du -sk --exclude=DEBIAN "$$root" | cut -f1)/" Config/debian/control > "$$root/DEBIAN/control"
	chmod 0644 "$$root/DEBIAN/control" "$$root/DEBIAN/md5sums"
	dpkg-deb --root-owner-group -Zxz --build "$$root" "$(DEBDIR)/pasteboard_$${version}_$${architecture}.deb"
