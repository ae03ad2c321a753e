/** A measured length in seconds, one decimal ("31.4 s"): the server measures samples and answers in ms. */
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
