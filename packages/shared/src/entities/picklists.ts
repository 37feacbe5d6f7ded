/** Picklist values shared by several entities. */

export const companyStages = [
  'Pre-seed',
  'Seed',
  'Series A',
  'Series B',
  'Series C+',
  'Growth',
  'Public',
  'Acquired',
  'Closed',
] as const;

export const industries = [
  'Software',
  'Fintech',
  'Healthcare',
  'Biotech',
  'Consumer',
  'E-commerce',
  'Energy',
  'Climate',
  'Industrials',
  'Real Estate',
  'Media',
  'Education',
  'Transportation',
  'Telecommunications',
  'Agriculture',
  'Other',
] as const;

export const fundStrategies = [
  'Venture Capital',
  'Seed/Early Stage',
  'Growth',
  'Buyout',
  'Mezzanine',
  'Distressed',
  'Secondaries',
  'Fund of Funds',
  'Private Credit',
  'Real Estate',
  'Infrastructure',
  'Natural Resources',
  'Co-investment',
  'Other',
] as const;

export const geographies = [
  'Global',
  'North America',
  'Latin America',
  'Europe',
  'Nordics',
  'United Kingdom',
  'DACH',
  'Middle East',
  'Africa',
  'Asia',
  'China',
  'India',
  'Southeast Asia',
  'Japan',
  'Oceania',
] as const;
