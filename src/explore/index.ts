/** Controller exploration (issue 20): reference runs, plans, test runs, findings, reports. */
export { explore, type ExploreOptions, type ExploreSummary } from './explore';
export { rerunPlan } from './rerun';
export { killAllControllers } from './controller-process';
export { mergeResults, summaryText, type MergedReport } from './report';
export { exploreReportHtml } from './report-html';
export { parseWorkload, loadWorkload, WorkloadError, type Workload, type WorkloadStep } from './workload';
export { FINDING_CLASSES, type FindingClass, type Perturbation, type Plan } from './plan';
export type { Finding } from './test-run';
