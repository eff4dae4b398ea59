import './base.css';
import './outline_tree.css';
import './notebook_review.css';
