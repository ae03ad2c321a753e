import fc from 'fast-check';

// A failed property's message carries its error ("Got error: …") beside the seed and the counterexample, so
// `npm test`'s closing lines (scripts/lib/test-totals.mjs) say why a model test failed on a CI machine.
fc.configureGlobal({ includeErrorInReport: true });
