// Imported first by main.ts. zod's fast path compiles validators with `new Function`, which the console's
// Content-Security-Policy (no 'unsafe-eval') forbids; even zod's probe for it is reported as a violation. The
// interpreted path validates the same way and is plenty fast for a page's traffic.
import { config } from 'zod';

config({ jitless: true });
