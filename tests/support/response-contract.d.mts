// Types for response-contract.mjs, for the Worker tests' request helper (worker/test/helpers/api.ts).
export interface ContractResponse {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

export function responseContract(document: Record<string, unknown>): (response: ContractResponse) => string[];
