"""Peak resident memory of Mollett during one clocked self-play game (issue 3).

Usage: python3 scripts/peak_rss.py path/to/mollett ["set_option hash 256" ...]

Runs the engine under /usr/bin/time -v, sends the given commands, then
`time_settings 20 0 0` and genmove for each side until two passes in a row,
keeping stdin open (end of input would stop a search). Prints the number of
moves, the final score and the peak RSS line.
"""
import subprocess, sys
if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
    sys.exit(__doc__)
p = subprocess.Popen(['/usr/bin/time','-v',sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
def ask(cmd):
    p.stdin.write(cmd+"\n"); p.stdin.flush()
    out=[]
    while True:
        l=p.stdout.readline()
        if l.strip()=="" and out: break
        if l.strip()!="": out.append(l.strip())
    return " ".join(out)
for c in sys.argv[2:]: print(c, ask(c))
ask("time_settings 20 0 0")
moves=0; passes=0; col='b'
while passes<2 and moves<80:
    r=ask("genmove "+col); moves+=1
    passes = passes+1 if 'pass' in r.lower() else 0
    if r.startswith('?'): break
    col = 'w' if col=='b' else 'b'
print("moves", moves, ask("final_score"))
p.stdin.close(); err=p.stderr.read()
print([l for l in err.split('\n') if 'Maximum resident' in l or 'Elapsed' in l])
