import { recommendationAction } from './action';

const reject = recommendationAction('reject');

export const rejectDescription = reject.description;
export const rejectOperation = reject.operation;
