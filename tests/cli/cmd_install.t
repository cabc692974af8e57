cmake --install puts platter, its man pages, the bash completion and the docs
under the GNU directories of the prefix, below DESTDIR; the binary works from
there and from anywhere it is copied to, since its Lua is built in.

  $ build=$(dirname "$(readlink -f "$(command -v platter)")")
  $ [ -f "$build/cmake_install.cmake" ] || { echo "no build tree beside the binary"; exit 80; }
  $ DESTDIR="$PWD/root" cmake --install "$build" --prefix /usr/local > install.log && echo installed
  installed
  $ (cd root/usr/local && find . -type f -printf '%h\n' | sort | uniq -c | sed 's/^ *//' | grep -v ' ./lib/platter$')
  1 ./bin
  1 ./share/bash-completion/completions
  1 ./share/doc/platter
  [0-9]+ ./share/doc/platter/docs (re)
  [0-9]+ ./share/man/man1 (re)
  1 ./share/man/man3
  $ ls root/usr/local/share/doc/platter/docs | diff - <(ls "$TESTDIR_SRC/../docs" | grep '\.md$') && echo same
  same

A build with MPI (-DPLATTER_MPI, docs/distributed.md) installs its module as
LIBDIR/platter/platter_mpi.so, where the installed binary looks for it; a
build without installs no lib directory at all.

  $ if [ -f "$build/platter_mpi.so" ]; then ls root/usr/local/lib/platter; elif [ ! -e root/usr/local/lib ]; then echo "no lib directory"; fi
  (platter_mpi.so|no lib directory) (re)

One man page per workload of 'platter list', and platter(1):

  $ ls root/usr/local/share/man/man1 | sort > pages
  $ { echo platter.1; platter list | awk '{ print "platter-" $1 ".1" }'; } | sort | diff - pages && echo same
  same

Installed, moved elsewhere, without the build tree's PLATTER_LUA_DIR:

  $ mkdir elsewhere && mv root/usr/local/bin/platter elsewhere/ && cd elsewhere
  $ PLATTER_LUA_DIR= ./platter --version | head -1 | cut -d' ' -f1
  platter
  $ PLATTER_LUA_DIR= ./platter list | wc -l | tr -d ' '
  13
  $ PLATTER_LUA_DIR= ./platter --sim ata-5400-1999 hdparm -t /dev/hda
  
  /dev/hda:
   Timing buffered disk reads:  44 MB in  3.11 seconds =  14.15 MB/sec

The installed completion is the one cmd_complete.t tests:

  $ cmp "$TESTDIR_SRC/../tools/completion.bash" ../root/usr/local/share/bash-completion/completions/platter && echo same
  same
