/** Review requests on the table, one item per request under its project; a decision is a put conditional on the status. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ReviewRequest, ReviewStatus, ReviewStore } from '../../domain/reviews.ts';
import { TableRecords } from './table-records.ts';
import { keys } from './table-schema.ts';

export class DynamoDbReviewStore implements ReviewStore {
  private readonly records: TableRecords;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.records = new TableRecords(client, tableName);
  }

  createReview(review: ReviewRequest): Promise<void> {
    return this.records.create(keys.review(review.projectId, review.id), 'review', review);
  }
  getReview(projectId: string, reviewId: string): Promise<ReviewRequest | undefined> {
    return this.records.get<ReviewRequest>(keys.review(projectId, reviewId));
  }
  async listReviews(projectId: string): Promise<ReviewRequest[]> {
    // Ids are UUIDv7: sorting by id is sorting by time.
    const items = await this.records.queryProject<ReviewRequest>(projectId, 'REVIEW#');
    return items.map(({ sk: _sk, ...r }) => r).sort((a, b) => (a.id < b.id ? 1 : -1));
  }
  updateReview(review: ReviewRequest, expected: ReviewStatus): Promise<boolean> {
    return this.records.putIf(keys.review(review.projectId, review.id), 'review', review, {
      ConditionExpression: '#status = :expected',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':expected': expected },
    });
  }
}
