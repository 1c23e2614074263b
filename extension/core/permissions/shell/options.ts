// A rule's prefix does not cover options that change what a program does. `bash(git log*)` is
// written to read history, not to run `git log --output=.git/hooks/pre-commit`; `bash(npm test*)`
// not `npm test --node-options=--import=data:…`. For the programs people write rules for, each
// option must be on an allow-list of known-harmless options (per subcommand where the program has
// them); anything else — an option that runs code, writes a file, loads config or changes the
// repository it works on, or one we simply do not know — takes the call out of a wildcard rule, so
// it asks (an exact rule written for that very command still covers it). Programs not listed here
// keep the rule's plain prefix meaning.

import { show } from './words';

/** Space-separated option names; a `=value` suffix is always allowed on a listed long option. */
const list = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter(Boolean));

interface ProgramOptions {
  /** Options before the subcommand (or, without subcommands, everywhere). */
  global: ReadonlySet<string>;
  /** Per subcommand; `*` for a subcommand not listed. Absent: the program has no subcommands. */
  sub?: Readonly<Record<string, ReadonlySet<string>>>;
  /** Options that take the next word as their value (`-m msg`, `-C dir`). */
  values?: ReadonlySet<string>;
  /** Single-dash long options (`-run=x` in go), not clusters of letters. */
  longSingleDash?: boolean;
  /** Arguments after `--` are left alone (pathspecs for git, a test binary's arguments for cargo). */
  endOfOptions?: boolean;
  /** `NAME=value` arguments change what the program runs (make's SHELL=…). */
  noAssignments?: boolean;
}

const DIFF = `-p --patch -u -s --no-patch --stat --numstat --shortstat --name-only --name-status --raw -z
  --summary --color --no-color --word-diff --word-diff-regex --color-words -w --ignore-all-space -b
  --ignore-space-change --ignore-blank-lines --unified -U --minimal --patience --histogram --diff-algorithm
  -M -C --find-renames --find-copies --no-renames --diff-filter --abbrev --full-index --binary -R --relative
  --no-relative --exit-code --quiet --check --ws-error-highlight -G -S --pickaxe-regex --pickaxe-all
  --stat-width --compact-summary --dirstat --ignore-submodules --src-prefix --dst-prefix --no-prefix -a --text`;
const LOG = `${DIFF} --oneline --graph --decorate --no-decorate --all --branches --tags --remotes --format --pretty
  --abbrev-commit --no-abbrev-commit -n --max-count --skip --since --until --after --before --author --committer
  --grep -i --regexp-ignore-case -E -F --extended-regexp --fixed-strings --all-match --invert-grep --merges
  --no-merges --first-parent --reverse --date --relative-date --follow -L --full-history --simplify-by-decoration
  --left-right --cherry-pick --cherry-mark --cherry --boundary --topo-order --date-order --author-date-order
  --no-walk --source -m --cc -c --remerge-diff --notes --no-notes --mailmap --use-mailmap --show-signature
  --expand-tabs --no-expand-tabs --show-linear-break --walk-reflogs -g --ancestry-path --min-parents
  --max-parents --log-size --no-color-moved --color-moved -e --email --numbered --summary`;

const GIT_SUB: Record<string, string> = {
  status: `-s --short -b --branch --porcelain --long -u --untracked-files --ignored --ignore-submodules -z
    --column --no-column --ahead-behind --no-ahead-behind --renames --no-renames --show-stash -v --verbose`,
  log: LOG,
  show: LOG,
  shortlog: `${LOG} -s --summary -n --numbered -e --email -c --committer -w --group`,
  reflog: LOG,
  whatchanged: LOG,
  diff: `${DIFF} --cached --staged --merge-base --no-index --ours --theirs --base -1 -2 -3`,
  'diff-tree': `${DIFF} -r -t --root --no-commit-id -m -c --cc`,
  // Deleting, renaming, copying, forcing a branch or changing its upstream (-d -D -m -M -c -C -f -u …) is
  // not what `bash(git branch*)` is written for: those ask. Listing and creating a branch are covered.
  branch: `-a --all -r --remotes -l --list -v -vv --verbose --merged --no-merged --contains --no-contains --sort
    --show-current --format --color --no-color --points-at --track --no-track -q --quiet --column --no-column
    --omit-empty`,
  'rev-parse': `--show-toplevel --abbrev-ref --short --verify --git-dir --is-inside-work-tree --show-prefix
    --show-cdup --symbolic-full-name --absolute-git-dir --git-common-dir -q --quiet --all --branches --tags
    --is-bare-repository --is-inside-git-dir --show-superproject-working-tree --symbolic --default --since
    --until --path-format --show-object-format`,
  'ls-files': `-c -d -m -o -i -s -u -k -z -t -v -f --cached --deleted --modified --others --ignored --stage
    --unmerged --killed --exclude-standard --exclude -x --exclude-per-directory --error-unmatch --full-name
    --abbrev --format --recurse-submodules --directory --no-empty-directory --eol --deduplicate --sparse`,
  'ls-tree': '-d -r -t -l -z --long --name-only --name-status --object-only --full-name --full-tree --abbrev',
  'ls-remote': '-h --heads -t --tags --refs -q --quiet --sort --symref --get-url',
  'show-ref': '--head --heads --tags -d --dereference -s --hash --verify --abbrev -q --quiet --exists',
  'cat-file': '-p -t -s -e --textconv=no --batch-check --batch --follow-symlinks --batch-all-objects',
  blame: `-L -l -t -S -p --porcelain --line-porcelain -w -M -C -e -s --date -c --root --show-stats --incremental
    --reverse --first-parent --ignore-rev --ignore-revs-file --color-lines --color-by-age -f -n --show-name
    --show-number --show-email --abbrev`,
  describe: '--tags --all --long --abbrev --always --dirty --broken --exact-match --match --exclude --contains',
  // Like branch: deleting or moving a tag (-d, -f) asks.
  tag: `-l --list -n --sort --contains --no-contains --points-at --merged --no-merged --format --column -a -m
    --message --annotate -i --ignore-case`,
  remote: '-v --verbose',
  grep: `-n --line-number -i --ignore-case -w --word-regexp -v --invert-match -l -L -c --count -e -E -F -P -G
    -h -H --name-only --files-with-matches --files-without-match --cached --untracked --no-index -r
    --recursive -I -a --text -A -B -C --context --after-context --before-context --heading --break --color
    --no-color --all-match -o --only-matching -q --quiet --max-depth -z --null -p --show-function -W
    --function-context --column --and --or --not --threads -m --max-count --full-name`,
  stash: '-p --patch --stat -m --message -u --include-untracked -k --keep-index --no-keep-index --index -q --quiet',
  add: '-A --all -u --update -n --dry-run -v --verbose -f --force -N --intent-to-add --ignore-errors --renormalize',
  commit: `-m --message -a --all --amend --no-edit -q --quiet -v --verbose -s --signoff -n --no-verify
    --allow-empty --allow-empty-message --author --date -F --file --fixup --squash --reset-author -c -C
    --reuse-message --no-gpg-sign --cleanup --only -o --include -i --dry-run --short --porcelain -z`,
  checkout: `-b -B --track --no-track -f --force -q --quiet --detach --orphan --ours --theirs -m --merge
    --no-guess --guess --progress --no-progress --ignore-other-worktrees --overwrite-ignore`,
  switch: `-c -C --create --force-create --detach --orphan -f --force --discard-changes -m --merge -q --quiet
    --track --no-track -t --guess --no-guess --progress --no-progress`,
  restore: '-s --source -S --staged -W --worktree --ours --theirs -m --merge -q --quiet --progress --no-progress',
  fetch: `--all --prune -p --tags -t --no-tags --depth --unshallow --deepen --shallow-since --dry-run -n -q
    --quiet -v --verbose -f --force --progress --no-progress --atomic --multiple --prune-tags -P --jobs -j`,
  pull: `--all --prune -p --tags --no-tags --depth --unshallow --dry-run -q --quiet -v --verbose -f --force
    --rebase -r --no-rebase --ff-only --ff --no-ff --squash --no-squash --commit --no-commit --autostash
    --no-autostash --progress --no-progress --stat --no-stat -n --no-edit`,
  push: `--all --prune --tags --dry-run -n -q --quiet -v --verbose -f --force --force-with-lease
    --force-if-includes --set-upstream -u --delete -d --follow-tags --atomic --no-verify --progress
    --no-progress --push-option -o --mirror`,
  merge: `--abort --continue --quit --ff --no-ff --ff-only --squash --no-squash -m --message --no-edit -q
    --quiet -v --verbose --stat --no-stat -n --no-commit --commit --autostash --no-autostash -s --strategy -X
    --strategy-option --allow-unrelated-histories --progress --no-progress --no-verify`,
  rebase: `--abort --continue --skip --quit --onto -q --quiet -v --verbose --autostash --no-autostash -s
    --strategy -X --strategy-option --root --keep-base --update-refs --no-update-refs -f --force-rebase
    --no-ff --stat -n --no-stat --no-verify --committer-date-is-author-date --reset-author-date --signoff`,
  'cherry-pick': `--abort --continue --skip --quit -n --no-commit -x -s --signoff -m --mainline --ff
    --allow-empty --keep-redundant-commits -X --strategy-option --no-edit`,
  revert: '--abort --continue --skip --quit -n --no-commit -s --signoff -m --mainline --no-edit',
  reset: '--hard --soft --mixed --keep --merge -q --quiet -p --no-refresh -N --intent-to-add',
  clean: '-n --dry-run -d -f --force -x -X -q --quiet -e --exclude',
  rm: '-f --force -n --dry-run -r --cached -q --quiet --ignore-unmatch --sparse',
  mv: '-f --force -n --dry-run -k -v --verbose',
  init: '-q --quiet -b --initial-branch --bare --object-format',
  clone: `--depth --branch -b --single-branch --no-single-branch --no-checkout -n -q --quiet -v --verbose
    --shallow-since --shallow-exclude --filter --origin -o --no-tags --sparse --progress --bare`,
  config: `--get --get-all --get-regexp --get-urlmatch --list -l --show-origin --show-scope --global --local
    --system --name-only -z --null --type --bool --int --path --default --includes --no-includes`,
  worktree: '-f --force -d --detach -b -B --lock --porcelain -v --verbose -q --quiet --expire --dry-run -n',
  submodule: '--init --recursive -q --quiet --remote --cached --depth --jobs --recommend-shallow',
  apply: `--check --stat --numstat --summary --cached --index -R --reverse -3 --3way -p --whitespace --reject
    -v --verbose -q --quiet --directory --exclude --include --unidiff-zero --allow-empty`,
  'format-patch': '--stdout -n --numbered -k --keep-subject --cover-letter --no-stat -s --signoff --thread',
  'merge-base': '--all --octopus --independent --is-ancestor --fork-point',
  'rev-list': `${LOG} --count --objects --left-only --right-only`,
  'for-each-ref': '--format --sort --count --points-at --merged --no-merged --contains --no-contains',
  'check-ignore': '-q --quiet -v --verbose -n --non-matching --no-index -z --stdin',
  'name-rev': '--tags --refs --exclude --all --name-only --no-undefined --always',
};

const RUNNER_FLAGS = `--watch --watchAll --coverage --no-coverage --runInBand -i --ci --verbose --silent -u
  --updateSnapshot -t --testNamePattern --testPathPattern --testPathIgnorePatterns --grep -g --bail --reporter
  --reporters --run --passWithNoTests --detectOpenHandles --forceExit --maxWorkers --project --selectProjects
  --changed --onlyChanged --listTests --colors --no-colors --typecheck --testTimeout --max-warnings --fix --quiet
  --format --noEmit --pretty --build -b --dry-run --force -w --no-watch --update -v --version --help -h
  --if-present --silent -s --workspaces --ws --workspace --color --no-color --fail-on-warnings --strict
  --sequential --parallel --shard --retry --timeout --only --skip --no-file-parallelism --clearScreen`;
const NPM_GLOBAL = `--silent -s -q --quiet --loglevel --workspace -w --workspaces -ws --ws --if-present --no-audit
  --no-fund --prefer-offline --offline --json --color --no-color --ignore-scripts --include-workspace-root
  --save-dev -D --save -S --save-exact -E --no-save --production --omit --include --legacy-peer-deps
  --frozen-lockfile --version -v --help -h --depth --all --long -l --parseable -p --global -g --recursive -r
  --filter --stream --reporter`;
const NPM_VALUES = '--loglevel --workspace -w --omit --include --depth --filter --reporter';
const npmLike = (): ProgramOptions => ({
  global: list(`${NPM_GLOBAL} ${RUNNER_FLAGS}`),
  sub: { '*': list(`${NPM_GLOBAL} ${RUNNER_FLAGS}`) },
  values: list(NPM_VALUES),
});

const PROGRAMS: Record<string, ProgramOptions> = {
  git: {
    global: list('--no-pager -P -p --paginate --version --help -h --no-optional-locks --literal-pathspecs'),
    sub: Object.fromEntries([
      ...Object.entries(GIT_SUB).map(([k, v]) => [k, list(`${v} -q --quiet -h --help`)]),
      ['*', list('-q --quiet -v --verbose -h --help')],
    ]),
    values: list(`-m --message -n --max-count --skip --author --committer --grep --since --until --after --before
      -L -S -G -b -B -c -C -t -U --unified --date --format --pretty --abbrev -o --origin --depth -F --file -s
      --source -X --strategy-option --strategy --onto --sort --contains --points-at -e -A -x --exclude`),
    endOfOptions: true,
  },
  npm: npmLike(),
  pnpm: npmLike(),
  yarn: npmLike(),
  bun: npmLike(),
  npx: {
    global: list('--yes -y --no --no-install --quiet -q --prefer-offline --offline'),
    sub: {
      '*': list(`${RUNNER_FLAGS} -p --project --noEmit --version --help --init --build --check --write --list
        --ext --cache --fix --max-warnings --out-dir --outDir --declaration --watch --config-name`),
    },
  },
  node: {
    global: list(`--test --test-reporter --test-name-pattern --test-only --enable-source-maps --no-warnings
      --trace-warnings --trace-uncaught --experimental-vm-modules --experimental-strip-types --version -v --help
      -h --watch --max-old-space-size --stack-size --unhandled-rejections --conditions --no-deprecation
      --throw-deprecation --test-concurrency --test-timeout --experimental-test-coverage`),
    endOfOptions: true,
  },
  python: {
    global: list('-u -B -O -OO -W -I -E -s -S -q -V --version -h --help -b -bb -v -m -P'),
    values: list('-W -m'),
  },
  sed: {
    global: list(`-n --quiet --silent -E -r --regexp-extended -e --expression -s --separate -u --unbuffered -z
      --null-data --posix -i --in-place --debug -l --line-length --follow-symlinks`),
    values: list('-e --expression -l --line-length'),
  },
  find: {
    // -delete, -fls/-fprint* (writes, judged as such elsewhere but not here) and unknown primaries ask.
    global: list(`-name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype -maxdepth
      -mindepth -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -size -empty -perm -user -group -uid
      -gid -nouser -nogroup -links -inum -samefile -readable -writable -executable -print -print0 -printf -ls
      -prune -quit -depth -d -xdev -mount -follow -L -H -P -true -false -not -a -and -o -or -lname -ilname -fstype
      -daystart -noleaf -ignore_readdir_race -exec -execdir -ok -okdir -fprint -fprint0 -fprintf -fls -newermt
      -newerct -newerat -used -O0 -O1 -O2 -O3 -D`),
    longSingleDash: true,
  },
  xargs: {
    global: list(`-0 --null -n --max-args -I -i -L -l -P --max-procs -d --delimiter -r --no-run-if-empty -t
      --verbose -a --arg-file -E -e -s --max-chars -x --exit`),
  },
  tar: {
    global: list(`-t --list -x --extract --get -c --create -v --verbose -z --gzip -j --bzip2 -J --xz --zstd -a
      --auto-compress -f --file -C --directory --exclude -p --preserve-permissions --strip-components --wildcards
      --no-same-owner --no-same-permissions -k --keep-old-files --skip-old-files -O --to-stdout -T --files-from
      --totals --exclude-vcs --exclude-from -X --anchored --no-anchored --numeric-owner --sort --mtime --owner
      --group --mode --format --force-local --delay-directory-restore --warning`),
    values: list('-f --file -C --directory --exclude -T --files-from -X --exclude-from --strip-components'),
  },
  curl: {
    global: list(`-s --silent -S --show-error -L --location -I --head -i --include -v --verbose -f --fail
      --fail-with-body -H --header -X --request -d --data --data-raw --data-binary --data-urlencode --json -o
      --output -O --remote-name --remote-name-all -m --max-time --connect-timeout --retry --retry-delay
      --retry-max-time --compressed -A --user-agent -e --referer -w --write-out -G --get --url -u --user -k
      --insecure -# --progress-bar -N --no-buffer -g --globoff -4 -6 --http1.1 --http2 -x --proxy -b --cookie -c
      --cookie-jar -D --dump-header -F --form --max-filesize -Z --parallel --create-dirs --fail-early -r --range
      -C --continue-at --limit-rate --trace --trace-ascii -q --disable --no-progress-meter --max-redirs
      --location-trusted --tlsv1.2 --tlsv1.3 --proto --proto-redir --resolve --ipv4 --ipv6 --stderr`),
    values: list(`-H --header -X --request -d --data --data-raw --data-binary --data-urlencode --json -o --output
      -m --max-time --connect-timeout --retry --retry-delay --retry-max-time -A --user-agent -e --referer -w
      --write-out --url -u --user -x --proxy -b --cookie -c --cookie-jar -D --dump-header -F --form -r --range
      -C --continue-at --limit-rate --trace --trace-ascii --max-redirs --proto --proto-redir --resolve --stderr
      --max-filesize`),
  },
  wget: {
    global: list(`-q --quiet -O --output-document -o --output-file -a --append-output -nv --no-verbose -v
      --verbose -c --continue -r --recursive -N --timestamping --header -U --user-agent -T --timeout -t --tries
      --no-check-certificate --spider -S --server-response --max-redirect -nc --no-clobber -np --no-parent -l
      --level -k --convert-links -p --page-requisites -nd --no-directories -nH --no-host-directories -4 -6
      --https-only --show-progress --progress --limit-rate -w --wait --quota -Q`),
    values: list(`-O --output-document -o --output-file -a --append-output --header -U --user-agent -T --timeout
      -t --tries --max-redirect -l --level --progress --limit-rate -w --wait --quota -Q`),
  },
  make: {
    global: list(`-j --jobs -k --keep-going -s --silent --quiet -n --dry-run --just-print --recon -B --always-make
      -q --question -w --print-directory --no-print-directory -O --output-sync -l --load-average -r
      --no-builtin-rules -R --no-builtin-variables -d --debug -p --print-data-base -v --version -h --help
      -S --no-keep-going --trace`),
    values: list('-j --jobs -l --load-average'),
    noAssignments: true,
  },
  cargo: {
    global: list('-q --quiet -v -vv --verbose --color --locked --offline --frozen -V --version -h --help --list'),
    sub: {
      '*': list(`--release -r --all-features --features -F --no-default-features --workspace --all -p --package
        --bin --bins --lib --tests --test --examples --example --benches --bench --all-targets --target --profile
        -j --jobs --no-run --no-fail-fast --doc --message-format --keep-going --timings -q --quiet -v -vv
        --verbose --locked --offline --frozen --color --check --fix --allow-dirty --allow-staged --exclude
        --ignore-rust-version --open --no-deps --document-private-items --depth --edges -i --invert --prefix
        --format --all-targets --future-incompat-report --tree -e --duplicates -d`),
    },
    values: list(`--features -F -p --package --bin --test --example --bench --target --profile -j --jobs
      --message-format --color --exclude --depth --edges -i --invert --prefix --format -e`),
    endOfOptions: true,
  },
  go: {
    global: list(''),
    sub: {
      '*': list(`-v -race -cover -count -run -bench -benchmem -benchtime -timeout -short -failfast -tags -p -json
        -mod -trimpath -n -a -buildvcs -parallel -cpu -list -shuffle -fuzz -fuzztime -covermode -coverpkg -skip
        -x -m -u -e -f -d -l -s -json -deps -test -find -compiled -export -retracted -versions -modcacherw -vet
        -all -t -insecure=false -sync`),
    },
    longSingleDash: true,
    endOfOptions: true,
  },
  docker: {
    global: list('--version -v --help -D --debug -l --log-level'),
    sub: {
      ps: list('-a --all -q --quiet --format --filter -f -n --last -l --latest -s --size --no-trunc'),
      images: list('-a --all -q --quiet --format --filter -f --digests --no-trunc --tree'),
      logs: list('-f --follow --tail -n --since --until -t --timestamps --details'),
      inspect: list('-f --format -s --size --type'),
      build: list(`-t --tag -f --file --no-cache --pull -q --quiet --progress --target --build-arg --platform
        --label --rm --force-rm --network=none --load`),
      run: list(`--rm -i --interactive -t --tty -d --detach --name -e --env -p --publish -P -w --workdir
        --platform --pull --init -u --user --entrypoint --network=none --read-only --memory -m --cpus --hostname -h
        --label -l --stop-timeout --tmpfs`),
      exec: list('-i --interactive -t --tty -d --detach -e --env -w --workdir -u --user'),
      version: list('-f --format'),
      info: list('-f --format'),
      pull: list('-q --quiet --platform -a --all-tags'),
      stop: list('-t --time -s --signal'),
      rm: list('-f --force -v --volumes'),
      rmi: list('-f --force --no-prune'),
      top: list(''),
      stats: list('-a --all --no-stream --format --no-trunc'),
      port: list(''),
      '*': list('-q --quiet --format -f -a --all'),
    },
    values: list(`--format --filter -n --last --tail --since --until --type -t --tag -f --file --progress --target
      --build-arg --platform --label --name -e --env -p --publish -w --workdir -u --user --entrypoint --memory -m
      --cpus --hostname -h -l --stop-timeout --tmpfs -s --signal --time`),
  },
};
PROGRAMS.python3 = PROGRAMS.python;
PROGRAMS.nodejs = PROGRAMS.node;
PROGRAMS.gsed = PROGRAMS.sed;
PROGRAMS.gmake = PROGRAMS.make;
PROGRAMS.podman = PROGRAMS.docker;

/** The programs whose options are judged here (for the guide's permissions page and the benches). */
export const PROGRAMS_WITH_OPTION_LISTS: readonly string[] = Object.keys(PROGRAMS);

const VALUE_FREE_SHORT = /^-\d+$/; // git log -5, head -20

/**
 * Why a wildcard rule must not cover this call (an option off the program's allow-list), or
 * undefined. `name` is the program's base name, `args` its arguments after quote removal.
 */
export function optionProblem(
  name: string,
  args: readonly string[],
  expands?: (i: number) => boolean,
): string | undefined {
  const base = /^python\d[\d.]*$/.test(name) ? 'python' : name;
  const spec = Object.hasOwn(PROGRAMS, base) ? PROGRAMS[base] : undefined;
  if (!spec) return undefined;
  let allowed = spec.global;
  let sub: string | undefined;
  let cargoToolchain = base === 'cargo';
  for (let i = 0; i < args.length; i++) {
    // tar's old style: `tar xzf a.tgz` is `tar -xzf a.tgz`.
    const a = base === 'tar' && i === 0 && /^[A-Za-z]+$/.test(args[0]) ? `-${args[0]}` : args[i];
    if (a === '--') {
      if (spec.endOfOptions || !spec.sub || sub === undefined) return undefined;
      continue;
    }
    if (cargoToolchain && a.startsWith('+')) continue;
    cargoToolchain = false;
    if (spec.noAssignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a))
      return `${name} ${a.split('=')[0]}=… can change the commands ${name} runs`;
    if (!a.startsWith('-') || a === '-') {
      // `*`, `{a,b}`, `$x` where an option could stand: bash may turn it into one (run-time-words.ts).
      if (expands?.(i)) return `\`${show(a)}\` is expanded by bash when it runs and could become an option of ${name}`;
      if (spec.sub && sub === undefined) {
        sub = a;
        allowed = Object.hasOwn(spec.sub, a) ? spec.sub[a] : spec.sub['*'];
        // python -m module / node script.js: what follows belongs to the script.
      } else if (!spec.sub && (base === 'node' || base === 'python') && !a.startsWith('-')) return undefined;
      continue;
    }
    if (VALUE_FREE_SHORT.test(a) && (base === 'git' || base === 'xargs')) continue;
    if (base === 'find' && /^-(exec|execdir|ok|okdir)$/.test(a)) {
      // The command find runs is judged as a piece of its own (analyse.ts).
      while (i + 1 < args.length && args[i + 1] !== ';' && args[i + 1] !== '+') i++;
      continue;
    }
    const bad = judgeOption(a, allowed, spec);
    if (bad) return `${name}${sub ? ` ${sub}` : ''} ${bad} is not an option Sextant knows to be harmless`;
    const opt = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (!a.includes('=') && spec.values?.has(opt) && (opt.startsWith('--') || opt.length === 2)) i++;
    else if (!a.startsWith('--') && !spec.longSingleDash && a.length > 2) {
      // A cluster (-abc): a letter that takes a value ends it, the rest being the value.
      const at = [...a.slice(1)].findIndex((ch) => spec.values?.has(`-${ch}`));
      if (at === a.length - 2) i++;
    }
    if (base === 'python' && (opt === '-m' || opt === '-c')) return undefined;
  }
  return undefined;
}

/** The option as it is not allowed (`--output`), or undefined when every part of it is allowed. */
function judgeOption(a: string, allowed: ReadonlySet<string>, spec: ProgramOptions): string | undefined {
  if (a.startsWith('--') || spec.longSingleDash) {
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    return allowed.has(name) || allowed.has(a) ? undefined : name;
  }
  if (allowed.has(a)) return undefined;
  if (a.includes('=')) return a.slice(0, a.indexOf('='));
  for (let k = 1; k < a.length; k++) {
    const flag = `-${a[k]}`;
    if (!allowed.has(flag)) return flag;
    if (spec.values?.has(flag)) return undefined; // the rest of the cluster is its value
  }
  return undefined;
}
