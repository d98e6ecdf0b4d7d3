import { roadmap } from './economy.ts';

const monthNames = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;

/** "September 2024" for a calendar month: the English long format of §4. */
export const monthYearLabel = (year: number, monthIndex: number): string => `${monthNames[monthIndex]} ${year}`;

/**
 * §4: a phase is highlighted when its date text equals the current month and year in English long
 * format. Quarter dates ("1st Quarter 2025") never match.
 */
export const isRoadmapActive = (date: string, year: number, monthIndex: number): boolean =>
  date === monthYearLabel(year, monthIndex);

/** The roadmap with each phase's highlight for a calendar month. */
export const roadmapFor = (year: number, monthIndex: number) =>
  roadmap.map((p) => ({ ...p, isRoadmapActive: isRoadmapActive(p.date, year, monthIndex) }));
