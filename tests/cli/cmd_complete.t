The bash completion (tools/completion.bash), sourced and called the way bash
calls it: COMP_WORDS and COMP_CWORD set, the candidates read from COMPREPLY.
Everything it offers comes from platter itself.

  $ . "$TESTDIR_SRC/../tools/completion.bash"
  $ c() { COMP_WORDS=(platter "$@"); COMP_CWORD=$#; _platter; ((${#COMPREPLY[@]})) || { echo '(none)'; return; }; printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' '; echo; }
  $ complete -p platter
  complete -F _platter platter

The first word: the commands of --help and the shipped workloads of 'platter list'.

  $ c s
  selftest slc-cliff steady sweep 
  $ c b
  bonnie bonnie++ 
  $ c ''
  align bonnie bonnie++ compare dd describe fio hdparm ioping ior iozone list mdtest pack plan plot qd-knee readahead rerun rw-mix selftest slc-cliff steady sweep verify vwc zoned zones 
  $ for w in $(platter list | awk '{print $1}'); do c "$w" | grep -qw -- "$w" || echo "missing $w"; done

Global options, from --help: every one it lists, and their values.

  $ c --s
  --seed --sim 
  $ for o in $(platter --help | grep -o -- '^  --[a-z-]*'); do c -- | grep -qw -- "$o" || echo "missing $o"; done
  $ c --sim ''
  ata-5400-1999 hitachi-85mb-1988 list nvme nvme-qlc sata-5400-512e sata-7200-lying sata-7200-wc scsi-7200-1999 smr-hm zns 
  $ c --sim = ata
  ata-5400-1999 
  $ c --seed 3 --sim nvme sw
  sweep 
  $ c --target ''
  list null os 
  $ c --target null sw
  sweep 

After describe and plan, the script (a workload or a .lua file), and after plan's
script, its own flags:

  $ c describe s
  slc-cliff steady sweep 
  $ c describe --json b
  bonnie bonnie++ 
  $ c plan -
  --budget --json --sim 
  $ c plan --sim ''
  ata-5400-1999 hitachi-85mb-1988 nvme nvme-qlc sata-5400-512e sata-7200-lying sata-7200-wc scsi-7200-1999 smr-hm zns 
  $ c plan --json --sim = nvme dd i
  ibs= if= iflag= 
  $ c plan --sim nvme sweep --m
  --max --min --modes 

After a workload, its own flags, from its p.args spec ('platter complete'):

  $ c sweep --
  --duration --keep-cache --max --min --modes --size --tests 
  $ c --quiet sweep -
  --duration --keep-cache --max --min --modes --size --tests -d -m -s -t 
  $ c dd i
  ibs= if= iflag= 
  $ c hdparm --style ''
  1996 1999 6 9 
  $ c dd --coreutils = 8.2
  8.20 8.24 8.25 
  $ for w in $(platter list | awk '{print $1}'); do
  >   diff <(platter complete "$w" | cut -f1 | grep '^-' | sort) <(c "$w" - | tr ' ' '\n' | grep . ) >/dev/null || echo "differs: $w"
  > done

A value that is a file or a directory completes as one; -e CODE offers nothing.

  $ mkdir dir.d && touch file.dat
  $ c --json fi
  file.dat 
  $ c bonnie -d di
  dir.d 
  $ c dd if = fi
  file.dat 
  $ c -e 'print(1)' ''
  (none)

The first word may also be a script or a pack (platter pack) in the current
directory; after pack, verify and the other commands, files.

  $ touch job.lua job.platter job.txt
  $ c jo
  job.lua job.platter 
  $ c pack jo
  job.lua job.platter job.txt 
  $ c verify job.p
  job.platter 

platter complete prints one line per flag: the flag, its metavariable, its
choices (tab-separated); --json prints the whole spec.

  $ platter complete hdparm | grep -e '^-t' -e '^--style'
  -t\t\t (esc)
  --style\tVERSION\t9 6 1999 1996 (esc)
  $ platter complete --json sweep | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["name"], d["usage"], len(d["options"]), d["options"][0]["names"])'
  sweep [options] [TARGET] 7 ['-s', '--size']
  $ platter complete nosuch
  platter: complete: no workload named 'nosuch' (see 'platter list')
  Try 'platter complete --help'.
  [2]
  $ platter complete
  platter: complete: usage: platter complete [--json] WORKLOAD
  Try 'platter complete --help'.
  [2]
  $ platter complete --help
  usage: platter complete [--json] WORKLOAD
  The workload's options, for the shell's completion (--json: its p.args spec).
