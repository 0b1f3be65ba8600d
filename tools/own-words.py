#!/usr/bin/env python3
"""
One-off: rewrites decision ids ("DECISIONS D9", "D46"), spec numbers ("spec 01") and issue numbers in comment lines of
packages/ and bench/ (.ts, .tsx) and in docs/ and README.md (.md, outside code fences) in Bookie's words: the rule's
name from docs/decisions.md ("the callback errors rule"), the contract's name ("the callback contract"), or nothing.
Run once on main after the branches are merged, from the repository root: `python3 tools/own-words.py write` (`dry`
counts the lines it would change), then review `git diff` and delete this file. It drops the ids from
docs/decisions.md's rule headings too, so run it over the whole tree at once.
"""
import re, sys, subprocess
TITLES = {1:'decimal strings',2:'callback bet type',3:'settle type',4:'odd statuses in callbacks',5:'competitor type',
6:'bet status numbers',7:'callback requests',8:'any 2xx is a success',9:'callback errors',10:'callback retries',
11:'callback signing',12:'full unsettle',13:'heartbeat',14:'cash-out callbacks',15:'leg factors',16:'exact, then rounded once',
17:'express cap',18:'freebet payout',19:'boosted odds',20:'insurance payout',21:'feed versions',22:'feed log',23:'refetch',
24:'change paths',25:'feed heartbeat line',26:'player sessions',27:'partner tokens',45:'optional callbacks',46:'lenient callbacks'}
for i in range(28,37): TITLES[i]='partner-reported bets'
for i in range(37,41): TITLES[i]='risk'
for i in range(41,45): TITLES[i]='cash-out'
for i in range(47,51): TITLES[i]='frame'
for i in range(51,55): TITLES[i]='environments and tools'
RANGES={(7,10):'callback',(1,6):'wire format',(1,7):'wire format',(15,20):'settlement arithmetic',(21,25):'feed'}
S='\x00'
def title(a,b=None):
    a=int(a)
    if b is None or int(b)==a: return TITLES.get(a)
    b=int(b)
    if (a,b) in RANGES: return RANGES[(a,b)]
    ta,tb=TITLES.get(a),TITLES.get(b)
    return ta if ta==tb else 'decision'
REF = re.compile(r'(?:DECISIONS\s+)?\bD(\d{1,2})(?:\s*[–-]\s*D?(\d{1,2}))?\b')
DET = re.compile(r'\b(the|their|its|each|every)\s+(?:DECISIONS\s+)?D(\d{1,2})(?:[–-]D?(\d{1,2}))?\s+([A-Za-z][\w-]*)(?![\w(])')
def ids(m):
    t=title(m.group(1), m.group(2))
    if t is None: return m.group(0)
    if t=='decision': return S+'the rules in docs/decisions.md'
    return S+'the '+t+(' rules' if m.group(2) else ' rule')
def det(m):
    t=title(m.group(2), m.group(3))
    if t is None: return m.group(0)
    return m.group(1)+' '+m.group(4)+' (see "'+t+'" in docs/decisions.md)'
SPEC = {'01':'the callback contract','02':'the feed contract','03':'the MTS and advisory contract'}
def spec(m):
    s=SPEC[m.group(2)]
    if m.group(1)=='S': s=s[0].upper()+s[1:]
    return s
def fix(text, md=False, starts=True):
    t=text
    if md: t=re.sub(r'\*\*D\d{1,2}(?:[–-]D\d{1,2})? ', '**', t)
    t=DET.sub(det, t)
    t=re.sub(r'(?<![\w"])(?:DECISIONS\s+)?D(\d{1,2})\s+(body|code|codes|ladder|shape|heartbeat|factor|factors|retries|object|table|cap|rounding)\b',
             lambda m: (m.group(2)+' (see "'+title(m.group(1))+'" in docs/decisions.md)') if title(m.group(1)) else m.group(0), t)
    t=REF.sub(ids, t)
    t=re.sub(r'\bthe '+S+'the ', S+'the ', t)
    t=re.sub(r'\b([Ss])pec (0[123]) ("[^"]+")', lambda m: spec(m)+', '+m.group(3), t)
    VERBS='lets|keeps|accepts|holds|expects|wants|counts|says|say|defines|define|requires|has|shows|leaves|allows|gives|names|calls|lists|is|does|uses|sends|and|or|to|with|for|as|in|on|of|sets|puts|keeps|only|also|rule|rules'
    t=re.sub(r'\b([Ss])pec (0[123]) (?=[a-z`])(?!(?:'+VERBS+r')\b)', lambda m: spec(m)+"'s ", t)
    t=re.sub(r'\b([Ss])pec (0[123])\b', spec, t)
    t=re.sub(r'\s?\([Ii]ssue \d+\)', '', t)
    t=re.sub(r'\([Ii]ssue \d+[;,]\s*', '(', t)
    t=re.sub(r'\b[Ii]ssue \d+\s*("[^"]+")', r'\1', t)
    t=re.sub(r'\b[Ii]ssue \d+:\s*', S, t)
    t=re.sub(r'(^\W*|[.!?]\s+)[Ii]ssue \d+\s+(?=[a-z])', lambda m: m.group(1)+S+'This work ', t)
    t=re.sub(r'\b[Ii]ssue \d+\s+', '', t)
    t=re.sub(r'\b[Ii]ssue \d+\b', 'this work', t)
    t=t.replace('../shared/spec/', 'the contract ').replace('../shared/design/', 'docs/').replace('../shared', 'the contract')
    # capitals where an inserted phrase starts a sentence or a list item
    lead = r'^\s*(?:[-*>]\s+|//\s*|\*\s+|/\*\*\s*|#+\s+)?(?:\*\*)?'
    item = re.match(r'^\s*(?:[-*>]\s+|#+\s+|/\*\*\s*|//\s*[-*]\s+|\*\s+[-*]\s+)', text)
    if starts or item:
        t=re.sub('('+lead+')'+S+'([a-z])', lambda m: m.group(1)+m.group(2).upper(), t)
    t=re.sub(r'([.!?]\s+)'+S+'([a-z])', lambda m: m.group(1)+m.group(2).upper(), t)
    t=t.replace(S, '')
    t=re.sub(r'\b([Tt])he the\b', r'\1he', t)
    return t

COMMENT = re.compile(r'^\s*(//|\*|/\*)')
def process(path, write):
    md = path.endswith('.md')
    src=open(path, encoding='utf8').read()
    lines=src.split('\n')
    out=[]; changed=0; fence=False; prev=''
    for line in lines:
        new=line
        body=re.sub(r'^\s*(//|\*|/\*\*|/\*)?\s*', '', prev).strip()
        starts = body=='' or body.endswith(('.', '!', '?', ':', '*/')) or prev.strip().endswith('/**') or prev.lstrip().startswith('#')
        if md:
            if line.strip().startswith('```'): fence=not fence
            if not fence: new=fix(line, md=True, starts=starts)
        elif COMMENT.match(line):
            new=fix(line, starts=starts)
        prev=line
        if new!=line: changed+=1
        out.append(new)
    if changed and write: open(path,'w',encoding='utf8').write('\n'.join(out))
    return changed
if __name__=='__main__':
    write = sys.argv[1]=='write'
    files = subprocess.run(['git','ls-files','packages','bench','docs','README.md'],capture_output=True,text=True).stdout.split()
    total=0
    for f in files:
        if not re.search(r'\.(ts|tsx|md)$', f) or '/dist' in f or f.endswith('bookie-api.ts'): continue
        n=process(f, write)
        total+=n
    print('changed lines', total)
