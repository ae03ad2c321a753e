// Nothing beyond the toolchain and workspace install that scripts/run.mjs already did.
console.log('✓ toolchain and workspace ready');
