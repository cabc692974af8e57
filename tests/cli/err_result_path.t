A result file that cannot be written stops the run before anything runs:
exit 2, naming the option, the path and why.

  $ platter --json /nonexistent/r.json sweep
  platter: --json /nonexistent/r.json: cannot write the result there: No such file or directory
  [2]
  $ platter --csv /nonexistent/dir/r.csv -e 'print("ran")'
  platter: --csv /nonexistent/dir/r.csv: cannot write the result there: No such file or directory
  [2]
  $ mkdir d
  $ platter --json d -e 'print("ran")'
  platter: --json d: cannot write the result there: Is a directory
  [2]
  $ touch f
  $ platter --json f/r.json -e 'print("ran")'
  platter: --json f/r.json: cannot write the result there: Not a directory
  [2]
  $ platter --json d/r.json --csv r.csv -e 'print("ran")'
  ran
  $ ls d r.csv
  r.csv
  
  d:
  r.json
