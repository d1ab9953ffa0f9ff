import { recommendationAction } from './action';

const accept = recommendationAction('accept');

export const acceptDescription = accept.description;
export const acceptOperation = accept.operation;
