// Loaded before the command line (NODE_OPTIONS=--import) by tests of what a command's start-up costs:
// says on stderr, once each, when the process first formats by locale (which loads ICU's locale data).

const said = new Set<string>();
function tell(what: string): void {
  if (said.has(what)) return;
  said.add(what);
  process.stderr.write(`start-up trap: ${what}\n`);
}

const methods: [Record<string, unknown>, string][] = [
  [Number.prototype as unknown as Record<string, unknown>, 'toLocaleString'],
  [Date.prototype as unknown as Record<string, unknown>, 'toLocaleString'],
  [Date.prototype as unknown as Record<string, unknown>, 'toLocaleDateString'],
  [Date.prototype as unknown as Record<string, unknown>, 'toLocaleTimeString'],
];
for (const [owner, name] of methods) {
  const original = owner[name] as (...args: unknown[]) => unknown;
  owner[name] = function (this: unknown, ...args: unknown[]) {
    tell(`locale formatting (${name})`);
    return original.apply(this, args);
  };
}
const intl = Intl as unknown as Record<string, object>;
for (const name of ['NumberFormat', 'DateTimeFormat', 'PluralRules', 'RelativeTimeFormat']) {
  intl[name] = new Proxy(intl[name]! as (...args: unknown[]) => unknown, {
    construct(target, args: unknown[]) {
      tell(`locale formatting (Intl.${name})`);
      return Reflect.construct(target, args) as object;
    },
    apply(target, self, args) {
      tell(`locale formatting (Intl.${name})`);
      return Reflect.apply(target, self, args);
    },
  });
}
