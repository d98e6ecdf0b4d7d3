/**
 * §2's roadmap dates are English text in engine/rules/economy.ts ("October 2024", "1st Quarter 2025");
 * §4 compares that text with the current month. For display in another language we read them back
 * into parts and let the catalog (quarters) or Intl (months) write them.
 */
const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

export type RoadmapDate =
  | { kind: 'month'; monthIndex: number; year: number }
  | { kind: 'quarter'; quarter: number; year: number }
  | { kind: 'text'; text: string };

export const parseRoadmapDate = (date: string): RoadmapDate => {
  const month = /^([A-Za-z]+) (\d{4})$/.exec(date);
  const monthIndex = month ? months.indexOf(month[1]!.toLowerCase()) : -1;
  if (month && monthIndex >= 0) return { kind: 'month', monthIndex, year: Number(month[2]) };
  const quarter = /^([1-4])(?:st|nd|rd|th) Quarter (\d{4})$/.exec(date);
  if (quarter) return { kind: 'quarter', quarter: Number(quarter[1]), year: Number(quarter[2]) };
  return { kind: 'text', text: date };
};
