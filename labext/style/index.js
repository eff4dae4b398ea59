import './base.css';
import './outline_tree.css';
