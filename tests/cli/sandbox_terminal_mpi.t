Under mpirun a rank's output goes through a pipe to mpirun, and from there
most often to a terminal the rank cannot see: in the sandbox its control
characters are shown (cat -v style) whatever its stdout is
(sandbox.md, "What a script prints, on a terminal"). Skipped without
mpirun or without the MPI module.

  $ command -v mpirun > /dev/null || exit 80
  $ [ -e "$(dirname "$(readlink -f "$(command -v platter)")")/platter_mpi.so" ] || exit 80
  $ export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader
  $ export OMPI_MCA_rmaps_base_oversubscribe=1 PLATTER_MPI_TIMEOUT=20
  $ export ASAN_OPTIONS=detect_leaks=0  # Open MPI's own allocations at exit (sanitizer builds)
  $ show() { python3 -c 'import sys; print(ascii(sys.stdin.buffer.read()))'; }
  $ timeout 60 mpirun -np 2 --oversubscribe platter -e 'print("r\27]52;c;eA==\7")' < /dev/null | show
  b'r^[]52;c;eA==^G\n'
(Open MPI gives a rank's stdout a pseudo-terminal, and its stderr a pipe.)

  $ timeout 60 mpirun -np 1 --oversubscribe platter -e 'platter.ewrite("e\27]52;c;eA==\7\n")' < /dev/null 2>&1 >/dev/null | show
  b'e^[]52;c;eA==^G\n'
  $ timeout 60 mpirun -np 2 --oversubscribe platter --trust -e 'print("r\27]0;t\7")' < /dev/null | show
  b'r\x1b]0;t\x07\n'
