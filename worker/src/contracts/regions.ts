/** SPEC section 5: the Legal Region options and the jurisdictions each one accepts. */
export const DATA_POLICY_REGIONS = ['US-HIPAA', 'EU-GDPR', 'INTL-General'] as const;
export type DataPolicyRegion = (typeof DATA_POLICY_REGIONS)[number];
export const DEFAULT_REGION: DataPolicyRegion = 'INTL-General';

export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS',
  'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC',
  'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
  'PR',
] as const;

export const EU_MEMBER_STATES = [
  'Austria', 'Belgium', 'Bulgaria', 'Croatia', 'Cyprus', 'Czechia', 'Denmark', 'Estonia', 'Finland',
  'France', 'Germany', 'Greece', 'Hungary', 'Ireland', 'Italy', 'Latvia', 'Lithuania', 'Luxembourg',
  'Malta', 'Netherlands', 'Poland', 'Portugal', 'Romania', 'Slovakia', 'Slovenia', 'Spain', 'Sweden',
] as const;

export const INTL_JURISDICTION_MAX = 100;
export const INTL_JURISDICTION_PLACEHOLDER = 'e.g., Ontario, Canada';
