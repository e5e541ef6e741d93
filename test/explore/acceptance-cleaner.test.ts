import { describeAcceptance } from './example-acceptance';

jest.setTimeout(240_000);

describeAcceptance('cleaner');
