// A batch's first error as SQL Server would name it.
export interface SyntaxFault {
  /** 1-based line in the batch text as sent. */
  line: number;
  /** The token SQL Server would name ('near ...'). */
  near: string;
  keyword: boolean;
  /** A name that cannot be bound (Msg 207) rather than a syntax error. */
  invalidColumn?: boolean;
}
